enum JarvisScannersModule {}
