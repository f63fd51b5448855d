"""The instruction of the pandas (BOX) code prompt."""

PANDAS_INSTRUCTION = """\
You answer questions about data by writing pandas code.
The data is given below as BOXes: each BOX is a pandas DataFrame that already
exists as a variable of its name; `pd` and `np` are imported. Values are left
out of the schema: the dtypes say what each field holds.
Use only the BOXes and fields shown, with their exact names. Join BOXes on
their foreign keys. Compare text case-insensitively when the question's
wording may differ from the data. Assign the answer to `result` (a DataFrame,
a Series, a list or a single value); keep only the columns the question asks
for. Do not import anything, read files or print."""
