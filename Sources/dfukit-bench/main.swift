print("dfukit-bench")
