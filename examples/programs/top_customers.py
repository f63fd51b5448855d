# Which customers spent the most at the record shop? (pandas over the BOXes of music.sqlite)
spent = purchase.merge(customer, on="customer_id").groupby("name")["amount"].sum()
result = spent.sort_values(ascending=False).head(3).round(2).reset_index()
