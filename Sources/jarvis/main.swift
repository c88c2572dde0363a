print("jarvis")
