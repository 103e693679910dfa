"""A job page's discussion written in Python, its forms' tokens put in as the page is sent.

Each comment is a dozen values and a reply form; the template spent ~1 ms on a short thread
(look-ups, filters, a tag per token). Here each comment is one format string (portal/rows.py)
with the markup the template wrote. The reply forms' CSRF and one-time submission tokens,
the only parts that differ from one visit to the next, are written as marks and replaced by
fresh tokens when the page is sent (with_tokens), so the rest can be kept (jobs/detail_kept.py).
The form for a new comment is the same for every job until a form is refused: its fields
are rendered once per process, its token put in the same way."""

from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from portal import submissions
from portal.dates import day_month, iso
from portal.links import row_url
from portal.markdown import render_markdown
from portal.rows import escaped, html_row

from .forms import CommentForm
from .steps import anchor_id, field_label, step_of_field

# Forms refuse text with NUL characters (Django's CharField), so no comment, name or label
# can hold these: only the marks written here are replaced.
CSRF_MARK = "\x00csrf\x00"
TOKEN_MARK = "\x00submission-token\x00"

_HEADER = (
    "<header><strong>{author}</strong>{staff} · "
    '<time datetime="{iso}">{when} UTC</time>{about}</header>'
)
_COMMENT = (
    '\n    <article class="comment" id="comment-{pk}">\n      ' + _HEADER + "\n"
    '      <div class="comment-body">{body}</div>\n      {replies}\n'
    '      <details class="reply-box"><summary>Reply<span class="visually-hidden"> to {to}'
    "</span></summary>\n"
    '        <form method="post" action="{action}" hx-post="{action}" '
    'hx-target="#discussion-section" hx-swap="outerHTML" class="stack">\n'
    '          <input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
    '<input type="hidden" name="{token_field}" value="{token}">'
    '<input type="hidden" name="parent" value="{pk}">'
    '<input type="hidden" name="anchor" value="{anchor}">\n'
    '          <label for="reply-{pk}">Your reply</label>\n'
    '          <textarea name="body" id="reply-{pk}" rows="3" required></textarea>\n'
    '          <button type="submit">Post reply</button>\n'
    "        </form>\n"
    "      </details>\n"
    "    </article>\n  "
)
_REPLY = (
    '\n        <article class="comment reply" id="comment-{pk}">\n          '
    + _HEADER.replace("{about}", "")
    + '\n          <div class="comment-body">{body}</div>\n        </article>\n      '
)
_ABOUT = ' · about <a href="{href}#{id}">{label}</a>'
_STAFF = SafeString(' <span class="badge">staff</span>')
NO_COMMENTS = SafeString(
    '\n    <p class="muted">No comments yet. Ask staff about a field, or explain a choice.</p>\n  '
)


def threads_html(job, threads):
    """The threads (selectors.discussion) as the page shows them, with the tokens' marks."""
    if not threads:
        return NO_COMMENTS
    action = row_url("comment_create", job.pk)
    rows = []
    for comment in threads:
        replies = "".join(
            html_row(_REPLY, pk=reply.pk, body=render_markdown(reply.body), **_said(reply))
            for reply in comment.thread
        )
        about = ""
        if comment.anchor:
            about = html_row(
                _ABOUT,
                href=row_url("job_step", job.pk, step_of_field(comment.anchor)),
                id=anchor_id(comment.anchor),
                label=field_label(comment.anchor),
            )
        rows.append(
            html_row(
                _COMMENT,
                pk=comment.pk,
                body=render_markdown(comment.body),
                replies=SafeString(replies),
                about=about,
                to=str(comment.author),  # as the template wrote it: "None" for no author
                action=action,
                csrf=SafeString(CSRF_MARK),
                token_field=submissions.FIELD,
                token=SafeString(TOKEN_MARK),
                anchor=comment.anchor,
                **_said(comment),
            )
        )
    return SafeString("".join(rows))


def _said(comment):
    return {
        "author": comment.author if comment.author is not None else "someone",
        "staff": _STAFF if comment.by_staff else "",
        "iso": iso(comment.created_at),
        "when": day_month(comment.created_at),
    }


_blank_form = {}


def new_comment_fields(job):
    """The new-comment form's fields as portal/_form_fields.html renders them, the form
    unbound: the same for every job (its parent's choices are not listed) but for the
    token, so rendered once per process, with the token's mark (a new process, a new
    deploy, renders them afresh)."""
    html = _blank_form.get("fields")
    if html is None:
        form = CommentForm(job=job, initial={submissions.FIELD: TOKEN_MARK})
        html = _blank_form["fields"] = render_to_string("portal/_form_fields.html", {"form": form})
    return html


def with_tokens(request, html):
    """`html` with this request's CSRF token and a fresh submission token in each form."""
    html = html.replace(CSRF_MARK, escaped(get_token(request)))
    parts = html.split(TOKEN_MARK)
    tokens = (str(submissions.new_token()) for _ in parts[1:])
    return SafeString(parts[0] + "".join(t + p for t, p in zip(tokens, parts[1:], strict=True)))
