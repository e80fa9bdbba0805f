-- Catalogue filters (brand, price range) and "You may also like". The brand indexes let a brand's page read its ids
-- from an index in every sort; the price range is checked on the rows a sort index walks (see README, "Filters").
CREATE TABLE `catalogue_brands` (
	`category` text NOT NULL,
	`brand` text NOT NULL,
	`product_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`category`, `brand`)
);
--> statement-breakpoint
CREATE INDEX `products_brand_release_idx` ON `products` (`brand`,`release_date`,`id`);
--> statement-breakpoint
CREATE INDEX `products_category_brand_release_idx` ON `products` (`category`,`brand`,`release_date`,`id`);
--> statement-breakpoint
CREATE INDEX `products_brand_price_idx` ON `products` (`brand`,`price_cents`,`id`);
--> statement-breakpoint
CREATE INDEX `products_category_brand_price_idx` ON `products` (`category`,`brand`,`price_cents`,`id`);
--> statement-breakpoint
CREATE INDEX `products_brand_name_idx` ON `products` (`brand`,`name`,`id`);
--> statement-breakpoint
CREATE INDEX `products_category_brand_name_idx` ON `products` (`category`,`brand`,`name`,`id`);
--> statement-breakpoint
CREATE INDEX `products_category_in_stock_release_idx` ON `products` (`category`,("stock_quantity" > 0 AND "product_available"),`release_date`,`id`);
--> statement-breakpoint
INSERT INTO `catalogue_brands` (`category`, `brand`, `product_count`)
  SELECT `category`, `brand`, count(*) FROM `products` GROUP BY `category`, `brand`;
--> statement-breakpoint
-- Kept in step like catalogue_counts (0002), by triggers of their own so those stay as they are.
CREATE TRIGGER `products_brands_after_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `catalogue_brands` (`category`, `brand`, `product_count`) VALUES (new.category, new.brand, 1)
    ON CONFLICT (`category`, `brand`) DO UPDATE SET `product_count` = `product_count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `products_brands_after_delete` AFTER DELETE ON `products` BEGIN
  UPDATE `catalogue_brands` SET `product_count` = `product_count` - 1 WHERE `category` = old.category AND `brand` = old.brand;
  DELETE FROM `catalogue_brands` WHERE `category` = old.category AND `brand` = old.brand AND `product_count` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `products_brands_after_update` AFTER UPDATE OF `category`, `brand` ON `products`
  WHEN old.category IS NOT new.category OR old.brand IS NOT new.brand BEGIN
  UPDATE `catalogue_brands` SET `product_count` = `product_count` - 1 WHERE `category` = old.category AND `brand` = old.brand;
  DELETE FROM `catalogue_brands` WHERE `category` = old.category AND `brand` = old.brand AND `product_count` <= 0;
  INSERT INTO `catalogue_brands` (`category`, `brand`, `product_count`) VALUES (new.category, new.brand, 1)
    ON CONFLICT (`category`, `brand`) DO UPDATE SET `product_count` = `product_count` + 1;
END;
