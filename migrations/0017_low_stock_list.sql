-- The low-stock list at scale (/admin/stock and the dashboard): every size with 3 units or fewer (LOW_STOCK in
-- app/lib/sizes.ts; the 3 below is the same rule, written as literals because a partial index needs one), emptiest
-- first, a page read from an index, for the whole catalogue or one category, with totals kept by triggers.
CREATE TABLE `low_stock_counts` (
	`category` text PRIMARY KEY NOT NULL,
	`size_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX `product_sizes_low_stock_idx`;--> statement-breakpoint
-- A copy of the product's category on each size, so one category's low-stock sizes are one range of an index
-- (SQLite cannot index a column of another table). Kept by the triggers below; the app never writes it.
ALTER TABLE `product_sizes` ADD `category` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `product_sizes` SET `category` = (SELECT `category` FROM `products` WHERE `products`.`id` = `product_sizes`.`product_id`);--> statement-breakpoint
CREATE INDEX `product_sizes_low_stock_category_idx` ON `product_sizes` (`category`,`stock_quantity`,`product_id`,`position`) WHERE "product_sizes"."stock_quantity" <= 3;--> statement-breakpoint
CREATE INDEX `product_sizes_low_stock_idx` ON `product_sizes` (`stock_quantity`,`product_id`,`position`) WHERE "product_sizes"."stock_quantity" <= 3;--> statement-breakpoint
-- One row for every category ('') and one per category (a category added later needs its row here too), counted
-- from the sizes there are, then kept by the triggers. A size counts where its own row says: under '' and under its
-- category column, so each trigger only follows one row's change.
INSERT INTO `low_stock_counts` (`category`) VALUES (''), ('Gents'), ('Ladies'), ('Kids'), ('Accessories');--> statement-breakpoint
UPDATE `low_stock_counts` SET `size_count` = (SELECT count(*) FROM `product_sizes` WHERE `product_sizes`.`stock_quantity` <= 3 AND `low_stock_counts`.`category` IN ('', `product_sizes`.`category`));--> statement-breakpoint
-- A new size: counted as inserted (category ''), then given its product's category (an UPDATE, which the next
-- trigger counts over). An insert that already names the right category (the bench's) skips that second write.
CREATE TRIGGER `product_sizes_low_stock_insert` AFTER INSERT ON `product_sizes` BEGIN
  UPDATE `low_stock_counts` SET `size_count` = `size_count` + 1 WHERE new.stock_quantity <= 3 AND `category` IN ('', new.category);
  UPDATE `product_sizes` SET `category` = (SELECT `category` FROM `products` WHERE `id` = new.product_id)
    WHERE `id` = new.id AND `category` IS NOT (SELECT `category` FROM `products` WHERE `id` = new.product_id);
END;--> statement-breakpoint
CREATE TRIGGER `product_sizes_low_stock_update` AFTER UPDATE OF `stock_quantity`, `category` ON `product_sizes`
WHEN (old.stock_quantity <= 3) <> (new.stock_quantity <= 3) OR (new.stock_quantity <= 3 AND old.category <> new.category) BEGIN
  UPDATE `low_stock_counts` SET `size_count` = `size_count` - 1 WHERE old.stock_quantity <= 3 AND `category` IN ('', old.category);
  UPDATE `low_stock_counts` SET `size_count` = `size_count` + 1 WHERE new.stock_quantity <= 3 AND `category` IN ('', new.category);
END;--> statement-breakpoint
-- Also when a product's deletion cascades to its sizes.
CREATE TRIGGER `product_sizes_low_stock_delete` AFTER DELETE ON `product_sizes` WHEN old.stock_quantity <= 3 BEGIN
  UPDATE `low_stock_counts` SET `size_count` = `size_count` - 1 WHERE `category` IN ('', old.category);
END;--> statement-breakpoint
CREATE TRIGGER `products_category_to_sizes` AFTER UPDATE OF `category` ON `products` WHEN new.category <> old.category BEGIN
  UPDATE `product_sizes` SET `category` = new.category WHERE `product_id` = new.id;
END;--> statement-breakpoint
CREATE TRIGGER `product_sizes_category_on_move` AFTER UPDATE OF `product_id` ON `product_sizes` WHEN new.product_id <> old.product_id BEGIN
  UPDATE `product_sizes` SET `category` = (SELECT `category` FROM `products` WHERE `id` = new.product_id) WHERE `id` = new.id;
END;
