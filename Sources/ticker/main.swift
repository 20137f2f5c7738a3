print("ticker")
