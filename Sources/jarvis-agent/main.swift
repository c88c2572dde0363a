print("jarvis-agent")
