// Where an agent listens is part of the agent's public API (``JarvisAgent/Options/tcp``); the
// type lives in the transport below, and hosts that import `JarvisRemote` see it as before.
@_exported import enum JarvisTransport.Endpoint
