// The sandbox key is an attribute of this script, not part of it: the
// script's text is fixed, so the Content-Security-Policy names its hash.
var sandboxKey = document.currentScript.dataset.sandboxKey || "";
document.querySelectorAll("form.console").forEach(function (form) {
  form.addEventListener("submit", async function (ev) {
    ev.preventDefault();
    var method = form.dataset.method, path = form.dataset.path, out = form.querySelector(".result");
    var values = {};
    form.querySelectorAll("input,textarea").forEach(function (el) { if (el.value !== "") values[el.name] = el.value; });
    var url = path, init = {method: method, headers: {}};
    var own = document.getElementById("own-key");
    var key = (own && own.value.trim()) || sandboxKey;
    if (key) init.headers["X-API-Key"] = key;
    if (method === "GET") {
      url += "?" + new URLSearchParams(values).toString();
    } else {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(values);
    }
    out.textContent = "…";
    try {
      var res = await fetch(url, init);
      var body = await res.text();
      var head = "HTTP " + res.status + "\n";
      res.headers.forEach(function (v, k) { if (/^x-|^content-type|^retry-after/i.test(k)) head += k + ": " + v + "\n"; });
      out.textContent = "";
      var pre = document.createElement("pre");
      if (form.dataset.html && res.ok) {
        pre.textContent = head;
        out.appendChild(pre);
        var frame = document.createElement("iframe");
        frame.setAttribute("sandbox", "");
        frame.srcdoc = body;
        out.appendChild(frame);
      } else {
        try { body = JSON.stringify(JSON.parse(body), null, 2); } catch (e) {}
        pre.textContent = head + "\n" + body;
        out.appendChild(pre);
      }
    } catch (e) {
      out.textContent = String(e);
    }
  });
});
