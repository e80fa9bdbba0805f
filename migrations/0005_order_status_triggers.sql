-- Every status an order takes is written to its history here, with who set it, so no code path can skip it.
-- Cancelling puts the order's stock back and leaving CANCELLED takes it again (the products stock CHECK fails the
-- statement when it is no longer there). The triggers fire only when an UPDATE really changes the status, so two
-- admins acting at once can never return the same stock twice.
CREATE TRIGGER `orders_after_insert_history` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_status_history` (`order_id`, `status`, `changed_by`) VALUES (new.id, new.status, new.status_changed_by);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_after_status_change` AFTER UPDATE OF `status` ON `orders` WHEN new.status <> old.status BEGIN
  INSERT INTO `order_status_history` (`order_id`, `status`, `changed_by`) VALUES (new.id, new.status, new.status_changed_by);
  UPDATE `products`
    SET `stock_quantity` = `stock_quantity` + (SELECT sum(i.quantity) FROM `order_items` i WHERE i.order_id = new.id AND i.product_id = `products`.id)
    WHERE new.status = 'CANCELLED' AND `id` IN (SELECT `product_id` FROM `order_items` WHERE `order_id` = new.id);
  UPDATE `products`
    SET `stock_quantity` = `stock_quantity` - (SELECT sum(i.quantity) FROM `order_items` i WHERE i.order_id = new.id AND i.product_id = `products`.id)
    WHERE old.status = 'CANCELLED' AND `id` IN (SELECT `product_id` FROM `order_items` WHERE `order_id` = new.id);
END;
