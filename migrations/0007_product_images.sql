CREATE TABLE `product_images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`position` integer NOT NULL,
	`key` text NOT NULL,
	`content_type` text NOT NULL,
	`name` text NOT NULL,
	`width` integer,
	`height` integer,
	`alt_text` text,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "product_images_position_check" CHECK("product_images"."position" BETWEEN 0 AND 7)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_images_product_position_unique` ON `product_images` (`product_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `product_images_key_unique` ON `product_images` (`key`);--> statement-breakpoint
-- Every product's one picture becomes its first (position 0), under the same R2 key: nothing is copied or lost. Its
-- width and height are not known to SQL; they are read from the bytes the first time the picture is served.
INSERT INTO `product_images` (`product_id`, `position`, `key`, `content_type`, `name`)
  SELECT `id`, 0, `image_key`, coalesce(`image_type`, 'application/octet-stream'), coalesce(`image_name`, 'image')
  FROM `products` WHERE `image_key` IS NOT NULL;
--> statement-breakpoint
-- products.image_key, image_type and image_name mirror the first picture, kept here so that no write can forget them:
-- the grid, the carts and GET /product/{id}/image go on reading one row.
CREATE TRIGGER `product_images_after_insert` AFTER INSERT ON `product_images` BEGIN
  UPDATE `products` SET
    `image_key` = (SELECT `key` FROM `product_images` WHERE `product_id` = new.product_id ORDER BY `position` LIMIT 1),
    `image_type` = (SELECT `content_type` FROM `product_images` WHERE `product_id` = new.product_id ORDER BY `position` LIMIT 1),
    `image_name` = (SELECT `name` FROM `product_images` WHERE `product_id` = new.product_id ORDER BY `position` LIMIT 1)
  WHERE `id` = new.product_id;
END;
--> statement-breakpoint
CREATE TRIGGER `product_images_after_update` AFTER UPDATE ON `product_images` BEGIN
  UPDATE `products` SET
    `image_key` = (SELECT `key` FROM `product_images` WHERE `product_id` = new.product_id ORDER BY `position` LIMIT 1),
    `image_type` = (SELECT `content_type` FROM `product_images` WHERE `product_id` = new.product_id ORDER BY `position` LIMIT 1),
    `image_name` = (SELECT `name` FROM `product_images` WHERE `product_id` = new.product_id ORDER BY `position` LIMIT 1)
  WHERE `id` = new.product_id;
END;
--> statement-breakpoint
CREATE TRIGGER `product_images_after_delete` AFTER DELETE ON `product_images` BEGIN
  UPDATE `products` SET
    `image_key` = (SELECT `key` FROM `product_images` WHERE `product_id` = old.product_id ORDER BY `position` LIMIT 1),
    `image_type` = (SELECT `content_type` FROM `product_images` WHERE `product_id` = old.product_id ORDER BY `position` LIMIT 1),
    `image_name` = (SELECT `name` FROM `product_images` WHERE `product_id` = old.product_id ORDER BY `position` LIMIT 1)
  WHERE `id` = old.product_id;
END;
