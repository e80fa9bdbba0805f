-- Search: an FTS5 index with the trigram tokenizer over name, brand and category, so "contains, case-insensitive"
-- is answered from the index for keywords of 3 characters or more (trigram needs 3). It mirrors `products`
-- (external content) and is kept in step by triggers, as are the per-category counts of catalogue_counts.
CREATE VIRTUAL TABLE `products_fts` USING fts5(name, brand, category, content='products', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `products_fts`(`products_fts`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `catalogue_counts` (`category`, `product_count`)
  SELECT c.category, (SELECT count(*) FROM `products` p WHERE c.category = '' OR p.category = c.category)
  FROM (SELECT '' AS category UNION ALL SELECT 'Gents' UNION ALL SELECT 'Ladies' UNION ALL SELECT 'Kids' UNION ALL SELECT 'Accessories') c;
--> statement-breakpoint
CREATE TRIGGER `products_after_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `products_fts`(rowid, name, brand, category) VALUES (new.id, new.name, new.brand, new.category);
  UPDATE `catalogue_counts` SET `product_count` = `product_count` + 1 WHERE `category` IN (new.category, '');
END;
--> statement-breakpoint
CREATE TRIGGER `products_after_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `products_fts`(`products_fts`, rowid, name, brand, category) VALUES ('delete', old.id, old.name, old.brand, old.category);
  UPDATE `catalogue_counts` SET `product_count` = `product_count` - 1 WHERE `category` IN (old.category, '');
END;
--> statement-breakpoint
CREATE TRIGGER `products_after_update` AFTER UPDATE OF name, brand, category ON `products` BEGIN
  INSERT INTO `products_fts`(`products_fts`, rowid, name, brand, category) VALUES ('delete', old.id, old.name, old.brand, old.category);
  INSERT INTO `products_fts`(rowid, name, brand, category) VALUES (new.id, new.name, new.brand, new.category);
  UPDATE `catalogue_counts` SET `product_count` = `product_count` - 1 WHERE `category` = old.category;
  UPDATE `catalogue_counts` SET `product_count` = `product_count` + 1 WHERE `category` = new.category;
END;
