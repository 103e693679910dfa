"""Filling in the site's forms with the keyboard, as a person does."""

import re


def type_into(page, field_id, text):
    field = page.locator(f"#{field_id}")
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def choose(page, field_id, value):
    page.locator(f"#{field_id}").select_option(value)


def press(page, name):
    button = page.get_by_role("button", name=name, exact=True)
    button.focus()
    page.keyboard.press("Enter")


def continue_to(watcher, step):
    press(watcher.page, re.compile(r"^Save and continue"))
    watcher.page.wait_for_url(f"**/edit/{step}/")
    watcher.check_accessibility()
