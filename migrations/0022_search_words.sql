-- The catalogue's words for the search's spelling correction ("snekers" finds the sneakers, docs/catalogue.md):
-- lower-case runs of a to z, 4 to 30 letters, from product names, brands and categories, with how often each occurs.
-- Product writes add their new words (app/services/catalogue.server.ts) and the nightly cron rebuilds the table; here
-- it is filled from the products a shop already has, by the statement the cron runs (SEARCH_WORDS_REBUILD in
-- app/lib/spelling.ts).
CREATE TABLE `search_words` (
	`word` text PRIMARY KEY NOT NULL,
	`len` integer NOT NULL,
	`uses` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_words_len_word_idx` ON `search_words` (`len`,`word`);--> statement-breakpoint
INSERT INTO search_words (word, len, uses)
WITH RECURSIVE
  texts(rest, uses) AS (
    SELECT lower(name) || ' ', count(*) FROM products GROUP BY lower(name)
    UNION ALL SELECT lower(brand) || ' ', count(*) FROM products GROUP BY lower(brand)
    UNION ALL SELECT lower(category) || ' ', count(*) FROM products GROUP BY category
  ),
  spaced(rest, piece, uses) AS (
    SELECT rest, '', uses FROM texts
    UNION ALL
    SELECT substr(rest, instr(rest, ' ') + 1), substr(rest, 1, instr(rest, ' ') - 1), uses FROM spaced WHERE rest <> ''
  ),
  pieces(rest, uses) AS (SELECT piece || ' ', sum(uses) FROM spaced WHERE length(piece) >= 4 GROUP BY piece),
  walk(rest, word, uses) AS (
    SELECT rest, '', uses FROM pieces
    UNION ALL
    SELECT substr(rest, 2), CASE WHEN substr(rest, 1, 1) BETWEEN 'a' AND 'z' THEN word || substr(rest, 1, 1) ELSE '' END, uses
    FROM walk WHERE rest <> ''
  )
SELECT word, length(word), sum(uses) FROM walk
WHERE length(word) BETWEEN 4 AND 30 AND NOT (substr(rest, 1, 1) BETWEEN 'a' AND 'z')
GROUP BY word;
