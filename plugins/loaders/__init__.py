"""Loaders of raw sources shared by every representation: files, SQL URLs, RDF."""
