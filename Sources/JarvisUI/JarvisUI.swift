// The SwiftUI panel; see JarvisPanel.swift.
