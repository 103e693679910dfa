"""Walking a keyset-paged list the way a person clicking Next, then Previous, would."""

from portal.pagination import keyset_page


def walk_pages(queryset, *, order, size, **options):
    """Every page of `queryset()` (called anew for each page, as a view does), forward from the
    first, then back from the last; `options` go to keyset_page."""
    pages, after = [], ""
    while True:
        page = keyset_page(queryset(), order=order, after=after, size=size, **options)
        pages.append(page)
        if not page.next_cursor:
            break
        after = page.next_cursor
    before = page.prev_cursor
    while before:
        page = keyset_page(queryset(), order=order, before=before, size=size, **options)
        pages.append(page)
        before = page.prev_cursor
    return pages
