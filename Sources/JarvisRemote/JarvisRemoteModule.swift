enum JarvisRemoteModule {}
