/* The site's one script (served from our origin: the CSP allows no inline scripts).
 *
 * 1. Requests carry the current CSRF token. Logging out and in again in another tab
 *    rotates the token in the cookie; a page opened before keeps the old one in its
 *    markup, so every save from it would be refused. We read the cookie at send time.
 * 2. A request that fails (403, 5xx, network down) is said where the person looks:
 *    in the form's save status and in a banner fixed to the bottom of the window.
 * 3. Forms marked data-keep="<key>" keep what was typed in this browser until the
 *    server confirms the save (X-Draft-Saved). A page that finds unsaved typing for
 *    its form puts it back and saves it, e.g. after logging in again. The copy is kept
 *    per tab and holds only the fields typed in that tab, so two tabs that could not
 *    save (one session expiry, the network down) keep both texts: neither overwrites
 *    the other's copy, nor its fields with what it merely showed.
 * 4. Buttons marked data-copy="<id>" copy that element's text (shown only with this script).
 */
(function () {
  "use strict";

  var KEEP_PREFIX = "portal:keep:";
  var KEEP_DAYS = 14;

  function csrfFromCookie() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : null;
  }

  // A tab's own name: sessionStorage is per tab and survives its reloads and navigation.
  var tabName = (function () {
    try {
      var name = window.sessionStorage.getItem("portal:tab");
      if (!name) {
        name = Date.now().toString(36) + Math.random().toString(36).slice(2, 10);
        window.sessionStorage.setItem("portal:tab", name);
      }
      return name;
    } catch (error) {
      return "tab";
    }
  })();

  function keptKey(form) {
    return KEEP_PREFIX + form.getAttribute("data-keep") + "@" + tabName;
  }

  // "portal:keep:job:7:work@tab" -> "job:7:work" (older copies have no "@tab").
  function keepOfKey(key) {
    var keep = key.slice(KEEP_PREFIX.length);
    var at = keep.lastIndexOf("@");
    return at >= 0 ? keep.slice(0, at) : keep;
  }

  // The fields typed in this tab, per form: only those are kept.
  var typedFields = new WeakMap();

  function typedIn(form) {
    if (!typedFields.has(form)) typedFields.set(form, new Set());
    return typedFields.get(form);
  }

  function formValues(form) {
    var values = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") values.push([name, value]);
    });
    return values;
  }

  // The values the server rendered (a reload may show the browser's own restored values).
  function renderedValues(form) {
    var values = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled || field.name === "csrfmiddlewaretoken") return;
      if (field.tagName === "SELECT") {
        Array.prototype.forEach.call(field.options, function (option) {
          if (option.defaultSelected) values.push([field.name, option.value]);
        });
        if (!field.multiple && !Array.prototype.some.call(field.options, function (o) { return o.defaultSelected; }) && field.options.length) {
          values.push([field.name, field.options[0].value]);
        }
      } else if (field.type === "checkbox" || field.type === "radio") {
        if (field.defaultChecked) values.push([field.name, field.value]);
      } else if (field.type !== "submit" && field.type !== "button" && field.type !== "file") {
        values.push([field.name, field.defaultValue]);
      }
    });
    return values;
  }

  function readKept(key) {
    try {
      return JSON.parse(window.localStorage.getItem(key) || "null");
    } catch (error) {
      return null;
    }
  }

  function writeKept(form, extra) {
    var typed = typedIn(form);
    if (!typed.size) return; // nothing typed here: nothing of this tab's to keep
    try {
      var values = formValues(form).filter(function (pair) { return typed.has(pair[0]); });
      var entry = { values: values, at: Date.now() };
      Object.assign(entry, extra || {});
      window.localStorage.setItem(keptKey(form), JSON.stringify(entry));
    } catch (error) {
      /* storage full or disabled: the server-side recovery still applies */
    }
  }

  function dropKept(key) {
    try {
      window.localStorage.removeItem(key);
    } catch (error) {
      /* nothing to drop */
    }
  }

  // ----- where the person looks ---------------------------------------------------
  function banner() {
    return document.getElementById("request-problem");
  }

  function statusFor(element) {
    var form = element && element.closest ? element.closest("form") : null;
    return form ? form.querySelector("[data-save-status]") : null;
  }

  function describeFailure(xhr, kept) {
    var keptText = kept ? " What you typed is kept in this browser and is saved as soon as the portal answers again." : "";
    if (!xhr || xhr.status === 0) {
      return "Not saved: the portal cannot be reached (are you offline?)." + keptText;
    }
    if (xhr.status === 403 && xhr.getResponseHeader("X-Portal-Reason") === "csrf") {
      return "Not saved: this page is out of date because you logged in or out in another tab. Log in again in any tab, then press Try again." + (kept ? " What you typed is kept in this browser." : "");
    }
    if (xhr.status === 403) {
      return "Not saved: your account is not allowed to do this any more (did you log in as someone else in another tab?)." + (kept ? " What you typed is kept in this browser." : "");
    }
    if (xhr.status === 404) {
      return "Not saved: this page no longer exists or is not yours to change.";
    }
    if (xhr.status === 429) {
      return "Not saved: too many requests. Wait a moment, then press Try again." + keptText;
    }
    if (xhr.status === 503) {
      return "Not saved: the portal could not reach its database for a moment. Press Try again in a few seconds." + keptText;
    }
    return "Not saved: the portal had a problem (error " + xhr.status + ")." + keptText;
  }

  var retryTarget = null;

  function showProblem(element, text) {
    var status = statusFor(element);
    if (status) {
      status.textContent = text;
      status.classList.add("message", "message-error");
    }
    var box = banner();
    if (!box) return;
    box.querySelector("[data-problem-text]").textContent = text;
    retryTarget = element;
    box.hidden = false;
  }

  function clearProblem(element) {
    var status = statusFor(element);
    if (status) status.classList.remove("message", "message-error");
    var box = banner();
    if (box && (!retryTarget || retryTarget === element || !document.contains(retryTarget))) {
      box.hidden = true;
      retryTarget = null;
    }
  }

  function retry() {
    var target = retryTarget;
    var box = banner();
    if (box) box.hidden = true;
    if (!target || !document.contains(target)) return;
    var form = target.closest("form");
    if (form && form.hasAttribute("hx-post") && form === target) {
      window.htmx.trigger(form, "change");
    } else {
      window.htmx.trigger(target, target.tagName === "FORM" ? "submit" : "click");
    }
  }

  // ----- keeping what was typed ------------------------------------------------------
  var typedSince = new WeakMap();

  function onTyping(event) {
    var form = event.target.form || (event.target.closest && event.target.closest("form"));
    if (!form || !form.hasAttribute("data-keep")) return;
    if (event.target.name) typedIn(form).add(event.target.name);
    typedSince.set(form, (typedSince.get(form) || 0) + 1);
    writeKept(form);
  }

  // This tab's copy; else the newest another tab left (a tab closed before it could save,
  // or a browser restarted): this tab takes it over, so it is put back once.
  function findKept(form) {
    var own = keptKey(form);
    if (readKept(own)) return own;
    var keep = form.getAttribute("data-keep");
    var newest = null;
    var newestAt = -1;
    try {
      Object.keys(window.localStorage).forEach(function (key) {
        if (key.indexOf(KEEP_PREFIX) !== 0 || keepOfKey(key) !== keep) return;
        var kept = readKept(key);
        if (kept && (kept.at || 0) > newestAt) {
          newest = key;
          newestAt = kept.at || 0;
        }
      });
      if (newest) {
        window.localStorage.setItem(own, window.localStorage.getItem(newest));
        window.localStorage.removeItem(newest);
      }
    } catch (error) {
      return own;
    }
    return own;
  }

  function restoreKept(form) {
    var key = findKept(form);
    var kept = readKept(key);
    if (!kept || !Array.isArray(kept.values)) return;
    if (Date.now() - (kept.at || 0) > KEEP_DAYS * 86400000) return dropKept(key);
    if (kept.submitted) return dropKept(key); // the full post reached the server and was saved
    if (!form.hasAttribute("hx-post")) return; // read-only now: nothing to save into
    var rendered = {};
    renderedValues(form).forEach(function (pair) {
      if (pair[0] !== "editor" && pair[0] !== "version") rendered[pair[0]] = pair[1];
    });
    var differs = kept.values.some(function (pair) {
      return pair[0] in rendered && rendered[pair[0]] !== pair[1];
    });
    if (!differs) return dropKept(key); // the server has it all
    kept.values.forEach(function (pair) {
      var field = form.elements.namedItem(pair[0]);
      if (field && "value" in field) field.value = pair[1];
      typedIn(form).add(pair[0]);
    });
    var status = form.querySelector("[data-save-status]");
    if (status) {
      status.textContent = "Put back what you typed earlier that had not been saved; saving it now.";
    }
    typedSince.set(form, 1);
    window.htmx.trigger(form, "change");
  }

  function markSubmitted(event) {
    var form = event.target;
    if (form.method && form.method.toLowerCase() === "post") {
      var token = csrfFromCookie();
      var input = form.querySelector("input[name=csrfmiddlewaretoken]");
      if (token && input) input.value = token;
    }
    if (form.hasAttribute("data-keep")) writeKept(form, { submitted: Date.now() });
  }

  // ----- validation that follows the fixes ------------------------------------------------
  // The server answers each save with every field's issues (out-of-band swaps); the red
  // border and aria-invalid belong to the input the person is typing in, which is not
  // replaced, so they are brought in line with the issues here.
  function syncValidity() {
    document.querySelectorAll('.issues[id$="-issues"]').forEach(function (box) {
      var fieldId = box.id.slice(0, -"-issues".length);
      var hasError = !!box.querySelector(".issue-error");
      var field = document.getElementById(fieldId);
      if (field && /^(INPUT|SELECT|TEXTAREA)$/.test(field.tagName)) {
        if (hasError) field.setAttribute("aria-invalid", "true");
        else field.removeAttribute("aria-invalid");
      }
      var wrap = document.getElementById(fieldId + "-wrap");
      if (wrap) wrap.classList.toggle("has-error", hasError);
    });
  }

  // A field the person has left is judged from then on: say so with the next save.
  function onLeave(event) {
    var field = event.target;
    var form = field.form;
    if (!form || !form.hasAttribute("data-keep") || !field.name || !/^(INPUT|SELECT|TEXTAREA)$/.test(field.tagName)) return;
    if (field.type === "hidden" || field.type === "submit") return;
    var seen = form.querySelector("[data-seen]");
    if (!seen) return;
    var names = seen.value ? seen.value.split(",") : [];
    if (names.indexOf(field.name) >= 0) return;
    names.push(field.name);
    seen.value = names.join(",");
    if (form.hasAttribute("hx-post")) window.htmx.trigger(form, "change");
  }

  // ----- wiring --------------------------------------------------------------------------
  document.addEventListener("htmx:configRequest", function (event) {
    var token = csrfFromCookie();
    if (token) {
      event.detail.headers["X-CSRFToken"] = token;
      // Django reads a posted csrfmiddlewaretoken before the header: refresh it too.
      if (event.detail.parameters && event.detail.parameters.has && event.detail.parameters.has("csrfmiddlewaretoken")) {
        event.detail.parameters.set("csrfmiddlewaretoken", token);
      } else if (event.detail.parameters && "csrfmiddlewaretoken" in event.detail.parameters) {
        event.detail.parameters.csrfmiddlewaretoken = token;
      }
    }
    var form = event.detail.elt.closest && event.detail.elt.closest("form");
    if (form) event.detail.elt.__portalTypedAtSend = typedSince.get(form) || 0;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var elt = detail.elt;
    var form = elt.closest ? elt.closest("form") : null;
    var keeping = form && form.hasAttribute("data-keep");
    if (detail.failed || !detail.successful) {
      if (keeping) writeKept(form);
      showProblem(elt, describeFailure(detail.xhr, keeping));
      return;
    }
    clearProblem(elt);
    if (keeping && detail.xhr.getResponseHeader("X-Draft-Conflict")) {
      dropKept(keptKey(form)); // the server keeps this version for the compare page
    } else if (keeping && detail.xhr.getResponseHeader("X-Draft-Saved")) {
      // Only forget the copy if nothing was typed while the save was on its way.
      if ((typedSince.get(form) || 0) === (elt.__portalTypedAtSend || 0)) dropKept(keptKey(form));
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest ? elt.closest("form") : null;
    var keeping = form && form.hasAttribute("data-keep");
    if (keeping) writeKept(form);
    showProblem(elt, describeFailure(null, keeping));
  });

  document.addEventListener("htmx:timeout", function (event) {
    showProblem(event.detail.elt, describeFailure(null, false));
  });

  document.addEventListener("htmx:afterSettle", syncValidity);
  // Focus after an in-place swap. A region names the element to focus with
  // data-focus-after-swap rather than autofocus: the browser and htmx each act on autofocus,
  // one frame apart, and the second would pull back a person who had already moved on.
  // Otherwise, if the focused element was replaced, the new region gets focus, so a keyboard
  // or screen-reader user is not thrown back to the top of the page.
  document.addEventListener("htmx:afterSettle", function (event) {
    // event.target is the element swapped in (with outerHTML, detail.target is the one it replaced).
    var swapped = event.target;
    var chosen = swapped && swapped.querySelector ? swapped.querySelector("[data-focus-after-swap]") : null;
    if (chosen) {
      chosen.removeAttribute("data-focus-after-swap");
      chosen.focus();
      return;
    }
    var target = event.detail.target;
    if (!target || !document.contains(target)) return;
    var active = document.activeElement;
    if (!active || active === document.body) {
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    window.setTimeout(syncValidity, 0);
  });
  document.addEventListener("focusout", onLeave);
  document.addEventListener("input", onTyping, true);
  document.addEventListener("change", onTyping, true);
  document.addEventListener("submit", markSubmitted, true);

  // Single-key shortcuts (triage): no modifier keys, never while typing in a field.
  // A link is followed; a field or a button gets focus (Enter then does it).
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName))) return;
    // A key typed into a text field is text; on a checkbox, radio or button it is free.
    if (target && target.tagName === "INPUT" && !/^(checkbox|radio|button|submit|reset)$/.test(target.type)) return;
    if (!/^[a-z]$/.test(event.key)) return;
    var element = document.querySelector('[data-key="' + event.key + '"]');
    if (!element) return;
    event.preventDefault();
    if (element.tagName === "A") element.click();
    else element.focus();
  });

  window.addEventListener("online", function () {
    if (retryTarget) retry();
  });

  // A copy button puts its source's text on the clipboard; where the browser refuses
  // (no permission, not a secure origin) the text is selected for Ctrl+C instead.
  function copyFrom(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentNode.querySelector("[data-copy-status]");
    if (!source) return;
    function say(words) {
      if (status) status.textContent = words;
    }
    function selectIt() {
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      say("Selected: press Ctrl+C (⌘C on a Mac) to copy.");
    }
    if (!navigator.clipboard || !window.isSecureContext) {
      selectIt();
      return;
    }
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      say("Copied.");
    }, selectIt);
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) {
      window.print();
      return;
    }
    var copy = event.target.closest && event.target.closest("[data-copy]");
    if (copy) {
      copyFrom(copy);
      return;
    }
    var button = event.target.closest && event.target.closest("[data-problem-action]");
    if (!button) return;
    if (button.getAttribute("data-problem-action") === "retry") retry();
    else banner().hidden = true;
  });

  function start() {
    // A page shown after a failed request (our CSRF or error page) keeps the copies.
    // After a normal post the next page tells whether it arrived: our error pages mark
    // the body, and then the copies must be put back on the way back, so they lose
    // their "submitted" mark; any other page means the post was saved.
    var failedPage = document.body.hasAttribute("data-request-failed");
    document.querySelectorAll("[data-copy-row]").forEach(function (row) {
      row.hidden = false;
    });
    try {
      Object.keys(window.localStorage).forEach(function (key) {
        if (key.indexOf(KEEP_PREFIX) !== 0) return;
        var kept = readKept(key);
        if (!kept || !kept.submitted) return;
        if (failedPage) {
          delete kept.submitted;
          window.localStorage.setItem(key, JSON.stringify(kept));
        } else if (!document.querySelector('[data-keep="' + keepOfKey(key) + '"]')) {
          dropKept(key);
        }
      });
    } catch (error) {
      /* storage disabled */
    }
    // After htmx has wired the page (its own DOMContentLoaded work ends in a timeout).
    window.setTimeout(function () {
      document.querySelectorAll("form[data-keep]").forEach(restoreKept);
    }, 0);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
