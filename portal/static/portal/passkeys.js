/* Passkeys (WebAuthn) on the second-step pages, as a static file (the CSP allows no inline
 * script). A form marked data-passkey="create" (adding one) or "get" (the code page) carries
 * the server's options in data-passkey-options; on submit the browser makes or uses the
 * passkey, its answer goes into the form's hidden "credential" field and the form is sent.
 * Without WebAuthn the form keeps its "this browser cannot" note and no button: the
 * authenticator app and the recovery codes stay the way in.
 */
(function () {
  "use strict";

  function toBuffer(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var binary = window.atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function toText(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return window.btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function decodeList(list) {
    (list || []).forEach(function (item) { item.id = toBuffer(item.id); });
  }

  function publicKey(kind, options) {
    options.challenge = toBuffer(options.challenge);
    if (kind === "create") {
      options.user.id = toBuffer(options.user.id);
      decodeList(options.excludeCredentials);
    } else {
      decodeList(options.allowCredentials);
    }
    return options;
  }

  // The JSON shape py_webauthn reads (the WebAuthn "toJSON" form of a credential).
  function answer(credential) {
    var response = credential.response;
    var out = {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: { clientDataJSON: toText(response.clientDataJSON) },
      clientExtensionResults: credential.getClientExtensionResults()
    };
    if (credential.authenticatorAttachment) {
      out.authenticatorAttachment = credential.authenticatorAttachment;
    }
    if (response.attestationObject) {
      out.response.attestationObject = toText(response.attestationObject);
      if (response.getTransports) out.response.transports = response.getTransports();
    } else {
      out.response.authenticatorData = toText(response.authenticatorData);
      out.response.signature = toText(response.signature);
      if (response.userHandle) out.response.userHandle = toText(response.userHandle);
    }
    return JSON.stringify(out);
  }

  function problemText(error) {
    if (error && error.name === "NotAllowedError") {
      return "No passkey was used (it was cancelled or took too long). Press the button to try again.";
    }
    if (error && error.name === "InvalidStateError") {
      return "This device already holds a passkey for your account: it is in the list.";
    }
    return "This browser could not use a passkey here. Use your authenticator app instead.";
  }

  var supported = Boolean(
    window.PublicKeyCredential && navigator.credentials && window.isSecureContext
  );

  document.querySelectorAll("form[data-passkey]").forEach(function (form) {
    if (!supported) return;
    var kind = form.getAttribute("data-passkey");
    var button = form.querySelector("[data-passkey-button]");
    var problem = form.querySelector("[data-passkey-problem]");
    var unsupported = form.querySelector("[data-passkey-unsupported]");
    if (unsupported) unsupported.hidden = true;
    button.hidden = false;

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var name = form.querySelector("[name=name]");
      if (name && !name.value.trim()) {
        form.submit(); // the server says what is missing; no passkey is made for nothing
        return;
      }
      var options = publicKey(kind, JSON.parse(form.getAttribute("data-passkey-options")));
      var call = kind === "create"
        ? navigator.credentials.create({ publicKey: options })
        : navigator.credentials.get({ publicKey: options });
      button.disabled = true;
      problem.hidden = true;
      call.then(function (credential) {
        form.querySelector("[name=credential]").value = answer(credential);
        form.submit();
      }).catch(function (error) {
        problem.textContent = problemText(error);
        problem.hidden = false;
        button.disabled = false;
        button.focus();
      });
    });
  });
})();
