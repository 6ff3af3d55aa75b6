print("modelgraph")
