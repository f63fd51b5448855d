-- Schema and rows of examples/music.sqlite, a small record shop written by the Pandora team.
-- Rebuild with: sqlite3 examples/music.sqlite < examples/music.sql
PRAGMA foreign_keys = ON;

CREATE TABLE artist (
    artist_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    country TEXT,
    formed_year INTEGER
);

CREATE TABLE album (
    album_id INTEGER PRIMARY KEY,
    artist_id INTEGER NOT NULL REFERENCES artist(artist_id),
    title TEXT NOT NULL,
    release_date DATE,
    genre TEXT,
    price REAL
);

CREATE TABLE track (
    track_id INTEGER PRIMARY KEY,
    album_id INTEGER NOT NULL REFERENCES album(album_id),
    title TEXT NOT NULL,
    track_number INTEGER,
    duration_seconds INTEGER
);

CREATE TABLE customer (
    customer_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    country TEXT,
    joined DATE
);

-- customer_id is declared text on purpose: SQLite compares '3' and 3 equal
-- through type affinity, and BOXes must keep such joins working.
CREATE TABLE purchase (
    purchase_id INTEGER PRIMARY KEY,
    customer_id TEXT REFERENCES customer(customer_id),
    track_id INTEGER NOT NULL REFERENCES track(track_id),
    purchased_at DATETIME,
    amount REAL
);

INSERT INTO artist VALUES
 (1, 'The Night Owls', 'United Kingdom', 1998),
 (2, 'Marta Quintero', 'Spain', 2009),
 (3, 'Kettle Drum Collective', 'United States', 2015),
 (4, 'Aino Virtanen', 'Finland', 2011),
 (5, 'Blue Meridian', 'Canada', 2003),
 (6, 'Los Faroles', 'Mexico', 1992);

INSERT INTO album VALUES
 (1, 1, 'Midnight Ledger', '2001-04-12', 'Rock', 9.99),
 (2, 1, 'Quiet Streets', '2006-10-02', 'Rock', 11.49),
 (3, 2, 'Luz de Agosto', '2012-06-18', 'Flamenco', 12.99),
 (4, 3, 'Pots and Pans', '2017-03-03', 'Jazz', 8.99),
 (5, 4, 'Talvi', '2014-01-20', 'Folk', 10.99),
 (6, 4, 'Kesä', '2019-07-01', 'Folk', 10.99),
 (7, 5, 'Harbour Lights', '2005-09-15', 'Pop', 7.99),
 (8, 6, 'Noche de Faroles', '1995-11-30', 'Ranchera', 6.49);

INSERT INTO track VALUES
 (1, 1, 'Ledger Lines', 1, 215),
 (2, 1, 'Owl Song', 2, 187),
 (3, 1, 'Paper Moon', 3, 242),
 (4, 2, 'Cobblestones', 1, 198),
 (5, 2, 'Lamplighter', 2, 263),
 (6, 3, 'Agosto', 1, 301),
 (7, 3, 'Sevilla al Alba', 2, 276),
 (8, 4, 'Simmer', 1, 410),
 (9, 4, 'Boil Over', 2, 355),
 (10, 4, 'Lid', 3, 122),
 (11, 5, 'Lumi', 1, 233),
 (12, 5, 'Pakkanen', 2, 251),
 (13, 6, 'Juhannus', 1, 219),
 (14, 7, 'Harbour Lights', 1, 204),
 (15, 7, 'Tidewater', 2, 188),
 (16, 8, 'Farol de Plata', 1, 176),
 (17, 8, 'Medianoche', 2, 199);

INSERT INTO customer VALUES
 (1, 'Alice Martin', 'France', '2018-02-11'),
 (2, 'Bashir Okafor', 'Nigeria', '2019-08-23'),
 (3, 'Chen Wei', 'China', '2020-01-05'),
 (4, 'Dolores Ruiz', 'Spain', '2018-11-30'),
 (5, 'Erik Lund', 'Finland', '2021-04-17'),
 (6, 'Fatima Haddad', 'Morocco', NULL);

INSERT INTO purchase VALUES
 (1, '1', 1, '2021-01-03 10:15:00', 0.99),
 (2, '1', 3, '2021-01-03 10:16:00', 0.99),
 (3, '2', 8, '2021-02-14 18:40:00', 1.29),
 (4, '3', 6, '2021-03-01 09:05:00', 1.29),
 (5, '3', 7, '2021-03-01 09:07:00', 1.29),
 (6, '3', 11, '2021-05-22 21:30:00', 0.99),
 (7, '4', 6, '2021-06-10 12:00:00', 1.29),
 (8, '4', 16, '2021-06-10 12:02:00', 0.99),
 (9, '5', 11, '2021-07-04 08:45:00', 0.99),
 (10, '5', 12, '2021-07-04 08:47:00', 0.99),
 (11, '5', 13, '2021-07-04 08:50:00', 0.99),
 (12, '2', 9, '2021-08-19 19:20:00', 1.29),
 (13, '1', 14, '2021-09-09 16:00:00', 0.99),
 (14, '3', 8, '2021-10-31 23:59:00', 1.29);
