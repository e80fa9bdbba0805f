-- The back office's search finds any word of a name (QA: "Silva" found neither "Kamal Silva" nor "Amaya de Silva"):
-- an FTS5 index of words over the customer's name on each order and over each user's name, as products_fts is over the
-- catalogue (migrations/0002): external content (the rows themselves, by rowid), kept in step by triggers, filled here
-- from the rows a shop already has. unicode61 splits a name into words and folds case (beyond ASCII) and diacritics
-- ("Sílva" is "silva"); the service asks for each typed word as a prefix ("de"* "sil"*), so the prefix ranges of
-- lower(name) that answered "from its start" (migrations/0013) are no longer read: their indexes go.
DROP INDEX `orders_customer_name_idx`;--> statement-breakpoint
DROP INDEX `users_name_idx`;--> statement-breakpoint
CREATE VIRTUAL TABLE `orders_fts` USING fts5(customer_name, content='orders', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `orders_fts`(`orders_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE VIRTUAL TABLE `users_fts` USING fts5(name, content='users', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `users_fts`(`users_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `orders_fts_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `orders_fts`(rowid, customer_name) VALUES (new.id, new.customer_name);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_fts_delete` AFTER DELETE ON `orders` BEGIN
  INSERT INTO `orders_fts`(`orders_fts`, rowid, customer_name) VALUES ('delete', old.id, old.customer_name);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_fts_update` AFTER UPDATE OF customer_name ON `orders` BEGIN
  INSERT INTO `orders_fts`(`orders_fts`, rowid, customer_name) VALUES ('delete', old.id, old.customer_name);
  INSERT INTO `orders_fts`(rowid, customer_name) VALUES (new.id, new.customer_name);
END;
--> statement-breakpoint
CREATE TRIGGER `users_fts_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `users_fts`(rowid, name) VALUES (new.id, new.name);
END;
--> statement-breakpoint
CREATE TRIGGER `users_fts_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `users_fts`(`users_fts`, rowid, name) VALUES ('delete', old.id, old.name);
END;
--> statement-breakpoint
CREATE TRIGGER `users_fts_update` AFTER UPDATE OF name ON `users` BEGIN
  INSERT INTO `users_fts`(`users_fts`, rowid, name) VALUES ('delete', old.id, old.name);
  INSERT INTO `users_fts`(rowid, name) VALUES (new.id, new.name);
END;
