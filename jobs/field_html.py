"""A step's fields as HTML made in Python (portal/rows.py's reasoning, for a form).

A guided step shows a few dozen fields, each a label, help, an input and its issues: as an
included template that was ~40 look-ups a field and half of the page's time. Here each field
is a few format strings filled with escaped values: the same markup. Texts that are the
format's own (help, messages) are turned into the form's words once per process."""

from dataclasses import dataclass
from functools import lru_cache

from django.urls import reverse
from django.utils.safestring import SafeString

from portal.markdown import render_markdown
from portal.rows import escaped as e

from .steps import anchor_id, form_words

CLARIFY = ' <span class="badge badge-warn">staff asked to clarify</span>'
CODE_FIELDS = ("command", "setup")  # monospace, taller, no spell-checking
HX = 'hx-target="#step-form" hx-swap="outerHTML" hx-sync="closest form:queue all"'


@lru_cache(maxsize=2048)
def words(text):
    """form_words(text), escaped: the format's texts are few and shown on every step."""
    return e(form_words(text))


@dataclass
class Form:
    """What every field of a step's form shares."""

    job_pk: int
    step: str
    editable: bool
    focus: str = ""

    def __post_init__(self):
        self.url = e(reverse("job_step", args=[self.job_pk, self.step]))


def fields_html(fields, form):
    return SafeString("".join(field(f, form) for f in fields))


def field(f, form):
    classes = "field" + (" has-error" if f.errors else "") + (" clarify" if f.clarify else "")
    inner = _group(f, form) if f.spec.kind == "group" else _single(f, form)
    return f'<div class="{classes}" id="{e(f.id)}-wrap">{inner}{_comments(f)}</div>\n'


def _group(f, form):
    s, fid = f.spec, e(f.id)
    item = e(s.item_label)
    out = [
        f'<fieldset class="group" id="{fid}"><legend>{e(s.label)}{CLARIFY if f.clarify else ""}'
        f'</legend>\n<p class="help" id="{fid}-help">{words(s.help)}</p>\n'
    ]
    for index, prefix, children in f.items:
        out.append(
            f'<fieldset class="group-item" id="{e(anchor_id(prefix))}">'
            f"<legend>{item} {index + 1}</legend>\n"
        )
        out.extend(field(child, form) for child in children)
        if form.editable:
            out.append(
                f'<button type="submit" class="secondary" name="action" value="remove:{e(prefix)}"'
                f' hx-post="{form.url}" {HX}>Remove {e(s.item_label.lower())} {index + 1}</button>\n'
            )
        out.append("</fieldset>\n")
    if not f.items:
        out.append('<p class="muted">None yet.</p>\n')
    if form.editable:
        focus = " autofocus" if form.focus == f"add:{f.path}" else ""
        out.append(
            f'<button type="submit" class="secondary" name="action" value="add:{e(f.path)}"'
            f' hx-post="{form.url}" {HX}{focus}>Add {e(s.item_label.lower())}</button>\n'
        )
    out.append(f"{_issues(f)}</fieldset>\n")
    return "".join(out)


def _single(f, form):
    s, fid = f.spec, e(f.id)
    help_ = words(s.help)
    if s.unit:
        help_ += f' <span class="unit">Unit: {e(s.unit)}.</span>'
    if s.example:
        help_ += f' <span class="example">Example: <code>{e(s.example)}</code></span>'
    common = (
        f'name="{e(f.path)}" id="{fid}"'
        f' aria-describedby="{e(f.described_by)}"{' aria-invalid="true"' if f.errors else ""}'
    )
    return (
        f'<label for="{fid}">{e(s.label)}{CLARIFY if f.clarify else ""}</label>\n'
        f'<div class="help" id="{fid}-help">{help_}</div>\n'
        f"{_input(f, form, common)}\n{_issues(f)}\n"
    )


def _input(f, form, common):
    s, value = f.spec, f.value
    if s.kind in ("choice", "bool"):
        choices = s.choices if s.kind == "choice" else [("true", "Yes"), ("false", "No")]
        options = "".join(
            f'<option value="{e(v)}"{" selected" if v == value else ""}>{e(label)}</option>'
            for v, label in choices
        )
        if s.kind == "choice" and value and value not in s.choice_values:
            options += (
                f'<option value="{e(value)}" selected>{e(value)} (not a valid choice)</option>'
            )
        disabled = "" if form.editable else " disabled"
        return (
            f'<select {common}{disabled}>\n<option value="">— not said yet —</option>\n'
            f"{options}\n</select>"
        )
    readonly = "" if form.editable else " readonly"
    if s.kind in ("textarea", "lines"):
        code = s.name in CODE_FIELDS
        extra = ' spellcheck="false" class="code"' if code else ""
        rows = 6 if code else 3
        return (
            f'<textarea name="{e(f.path)}" id="{e(f.id)}" rows="{rows}"'
            f' aria-describedby="{e(f.described_by)}"'
            f"{' aria-invalid="true"' if f.errors else ''}{readonly}{extra}>{e(value)}</textarea>"
        )
    focus = " autofocus" if form.focus == f.path else ""
    decimal = ' inputmode="decimal"' if s.kind in ("int", "float") else ""
    return (
        f'<input type="text" name="{e(f.path)}" id="{e(f.id)}" value="{e(value)}"{focus}'
        f' aria-describedby="{e(f.described_by)}"{' aria-invalid="true"' if f.errors else ""}'
        f'{readonly}{decimal} autocomplete="off">'
    )


def _issues(f):
    lines = "".join(
        f'\n  <p class="issue issue-{e(i.level)}"><span class="issue-level">'
        f"{e(str(i.level)[:1].upper() + str(i.level)[1:])}:</span> {words(i.message)}</p>"
        for i in f.issues
    )
    return f'<div class="issues" id="{e(f.id)}-issues" aria-live="polite">{lines}</div>'


def _comments(f):
    if not f.comments:
        return ""
    count = len(f.comments)
    notes = "".join(
        f'<div class="comment-mini"><strong>{e(c.author)}</strong>'
        f"{' (staff)' if c.by_staff else ''}: {e(render_markdown(c.body))}</div>"
        for c in f.comments
    )
    return (
        f'<details class="field-comments"><summary>{count} comment{"" if count == 1 else "s"}'
        f" on this field</summary>\n{notes}\n</details>\n"
    )
