-- catalogue_changes gets an AUTOINCREMENT id: SQLite gives a plain rowid again once a table is emptied, so a purge
-- that read rows 1..5 and deleted "rowid <= 5" after another request had emptied the table could delete a change
-- recorded meanwhile (as row 1) before the request that made it read it: that product's pages were never purged
-- (security review). The table is rebuilt; the triggers that write to it are dropped first and made again as they were,
-- since SQLite will not rename a table into place while a trigger names a table that is gone.
DROP TRIGGER `products_changes_after_insert`;
--> statement-breakpoint
DROP TRIGGER `products_changes_after_update`;
--> statement-breakpoint
DROP TRIGGER `products_changes_after_delete`;
--> statement-breakpoint
DROP TRIGGER `product_sizes_changes_after_insert`;
--> statement-breakpoint
DROP TRIGGER `product_sizes_changes_after_update`;
--> statement-breakpoint
DROP TRIGGER `product_sizes_changes_after_delete`;
--> statement-breakpoint
DROP TRIGGER `product_images_changes_after_insert`;
--> statement-breakpoint
DROP TRIGGER `product_images_changes_after_update`;
--> statement-breakpoint
DROP TRIGGER `product_images_changes_after_delete`;
--> statement-breakpoint
DROP TRIGGER `reviews_changes_after_insert`;
--> statement-breakpoint
DROP TRIGGER `reviews_changes_after_update`;
--> statement-breakpoint
DROP TRIGGER `reviews_changes_after_delete`;
--> statement-breakpoint
CREATE TABLE `__new_catalogue_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_catalogue_changes`(`product_id`) SELECT `product_id` FROM `catalogue_changes` ORDER BY rowid;
--> statement-breakpoint
DROP TABLE `catalogue_changes`;
--> statement-breakpoint
ALTER TABLE `__new_catalogue_changes` RENAME TO `catalogue_changes`;
--> statement-breakpoint
CREATE TRIGGER `products_changes_after_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `products_changes_after_update` AFTER UPDATE ON `products` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.id);
END;
--> statement-breakpoint
CREATE TRIGGER `products_changes_after_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (old.id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_sizes_changes_after_insert` AFTER INSERT ON `product_sizes` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_sizes_changes_after_update` AFTER UPDATE ON `product_sizes` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_sizes_changes_after_delete` AFTER DELETE ON `product_sizes` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (old.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_images_changes_after_insert` AFTER INSERT ON `product_images` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_images_changes_after_update` AFTER UPDATE ON `product_images` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_images_changes_after_delete` AFTER DELETE ON `product_images` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (old.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `reviews_changes_after_insert` AFTER INSERT ON `reviews` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `reviews_changes_after_update` AFTER UPDATE ON `reviews` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `reviews_changes_after_delete` AFTER DELETE ON `reviews` BEGIN
  INSERT INTO `catalogue_changes` (`product_id`) VALUES (old.product_id);
END;
