ALTER TABLE `products` ADD `pictures_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Compare-and-set for a product's pictures. A save reads the pictures and this version together, and its batch first
-- sets the version to what it read + 1; if another save committed meanwhile, the version is already that, the
-- trigger aborts, and the whole batch (rows written, rows deleted) with it: the save answers 409 and removes the
-- R2 objects it had just stored, and the committed save's objects are never touched. Without it, a save could
-- write back a kept picture row whose object the other save had just deleted from R2.
CREATE TRIGGER `products_pictures_version_step` BEFORE UPDATE OF `pictures_version` ON `products`
WHEN new.pictures_version IS NOT old.pictures_version + 1
BEGIN
  SELECT RAISE(ABORT, 'pictures_version: the pictures were changed meanwhile');
END;
--> statement-breakpoint
CREATE INDEX `product_sizes_label_in_stock_idx` ON `product_sizes` (`label`,`product_id`) WHERE "product_sizes"."stock_quantity" > 0;