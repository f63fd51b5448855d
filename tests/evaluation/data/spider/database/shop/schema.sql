CREATE TABLE shop (shop_id INTEGER PRIMARY KEY, name TEXT, city TEXT, opened INTEGER);
CREATE TABLE sale (sale_id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(shop_id), amount REAL);
INSERT INTO shop VALUES (1, 'North Books', 'Oslo', 2001), (2, 'Paper Moon', 'Bergen', 2010), (3, 'Ink', 'Oslo', 2015);
INSERT INTO sale VALUES (1, 1, 10.5), (2, 1, 4.5), (3, 2, 20.0), (4, 3, 7.0), (5, 3, 3.0);
