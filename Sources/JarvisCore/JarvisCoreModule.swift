enum JarvisCoreModule {}
