print("agg")
