import { describe, expect, it } from "vitest";

import { pageHref } from "~/components/Pagination";

describe("pageHref: a page of the list, the rest of the query kept", () => {
  it("keeps the filters and sets the page (none for the first)", () => {
    expect(pageHref(new URLSearchParams("category=Gents&sort=name"), 2)).toBe("?category=Gents&sort=name&page=2");
    expect(pageHref(new URLSearchParams("category=Gents&page=3"), 1)).toBe("?category=Gents");
  });

  it("leaves out what a page says once (an add, a refused add, a product deleted or saved): its toast stays on its page", () => {
    expect(pageHref(new URLSearchParams("keyword=belt&added=12&page=1"), 2)).toBe("?keyword=belt&page=2");
    expect(pageHref(new URLSearchParams("cartError=Out&deleted=1&saved=3&category=Kids"), 2)).toBe("?category=Kids&page=2");
  });

  it("leaves out what a login or a registration said once (the cart merged, the welcome)", () => {
    expect(pageHref(new URLSearchParams("merged=1&category=Kids"), 2)).toBe("?category=Kids&page=2");
    expect(pageHref(new URLSearchParams("welcome=1"), 3)).toBe("?page=3");
  });
});
