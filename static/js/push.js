// The settings' notifications (templates/partials/push_settings.html): this device's push
// subscription made with the site's VAPID public key and posted to the server (it lists the
// device; the task worker sends to it), or ended. The service worker (/sw.js) shows what
// comes. The section says what this browser can do: notified, off, cannot, refused.
(function () {
  "use strict";
  function section() {
    return document.querySelector("[data-push-settings]");
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (e) {
      var input = document.querySelector("input[name=csrfmiddlewaretoken]");
      return input ? input.value : "";
    }
  }

  function show(state) {
    var box = section();
    if (!box) return;
    box.dataset.push = state;
    box.querySelectorAll("[data-push-when]").forEach(function (part) {
      part.hidden = part.dataset.pushWhen.split(" ").indexOf(state) < 0;
    });
  }

  // The VAPID public key (base64url) as pushManager.subscribe takes it.
  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  // Posts to the server; its answer is the section again (the list of devices with this one).
  function post(url, fields) {
    var body = new FormData();
    Object.keys(fields).forEach(function (name) { body.append(name, fields[name]); });
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: {"X-CSRFToken": csrfToken()}
    }).then(function (answer) {
      return answer.text().then(function (html) {
        var holder = document.createElement("template");
        holder.innerHTML = html;
        var fresh = holder.content.querySelector("[data-push-settings]");
        var box = section();
        if (fresh && box) box.replaceWith(fresh);
        return answer.ok;
      });
    });
  }

  function registration() {
    return navigator.serviceWorker.ready;
  }

  function start() {
    var box = section();
    if (!box || !box.dataset.publicKey) return;
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.Notification) {
      show("unsupported");
      return;
    }
    if (Notification.permission === "denied") {
      show("denied");
      return;
    }
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      show(subscription ? "on" : "off");
    });
  }

  function turnOn() {
    var key = section().dataset.publicKey;
    var url = section().dataset.subscribeUrl;
    Notification.requestPermission().then(function (answer) {
      if (answer !== "granted") {
        show("denied");
        return null;
      }
      return registration().then(function (reg) {
        return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(key)});
      }).then(function (subscription) {
        var json = subscription.toJSON();
        return post(url, {endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth});
      }).then(function (ok) {
        show(ok ? "on" : "failed");
      });
    }).catch(function () {
      show("failed");
    });
  }

  function turnOff() {
    var url = section().dataset.unsubscribeUrl;
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () {
        return post(url, {endpoint: endpoint});
      });
    }).then(function () {
      show("off");
    }).catch(function () {
      show("failed");
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-push-settings] button[data-action]");
    if (!button) return;
    if (button.dataset.action === "push-on") turnOn();
    else if (button.dataset.action === "push-off") turnOff();
  });
  start();
})();
