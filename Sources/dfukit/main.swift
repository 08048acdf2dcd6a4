print("dfukit")
