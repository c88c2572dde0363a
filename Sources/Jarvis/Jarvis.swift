// The module an app imports to embed the agent: `import Jarvis` brings the agent
// (``JarvisAgent``), the built-in scanners and the core types, and the agent's default scanners
// (``JarvisAgent/start(configuration:options:)``).
@_exported import JarvisCore
@_exported import JarvisRemote
@_exported import JarvisScanners
