-- The products whose pages a write changed: every write to a product, its sizes (stock included), its pictures or its
-- reviews records the product here, and the Worker purges those pages from the edge cache after the request
-- (workers/catalogue-purge.ts). Triggers, so that no write path, today's or tomorrow's, can forget.
CREATE TABLE `catalogue_changes` (
	`product_id` integer NOT NULL
);
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
