owner = "platform"
