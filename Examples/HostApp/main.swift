print("host")
