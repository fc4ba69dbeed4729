// pnpforge table page: live score totals and small comforts. The page works without this file:
// every button is a plain form submit the server answers in full.
"use strict";
(function () {
  const offline = document.getElementById("offline");
  const sheet = document.getElementById("sheet");
  const hint = sheet ? sheet.querySelector(".js-hint") : null;
  const result = document.getElementById("result");
  // offline: say so, keep every typed value (no submit leaves the page), mark the totals as stale
  const showOffline = function (away) {
    if (offline) offline.hidden = !away;
    if (hint) hint.hidden = away;
    if (result) result.classList.toggle("stale", away);
  };
  window.addEventListener("offline", function () { showOffline(true); });
  window.addEventListener("online", function () { showOffline(false); if (sheet) update(); });
  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (navigator.onLine === false) { event.preventDefault(); showOffline(true); }
    });
  });
  let timer = null;
  let asked = 0;
  const update = function () {
    if (!sheet) return;
    const mine = ++asked;
    const body = new URLSearchParams(new FormData(sheet));
    fetch(sheet.dataset.api, { method: "POST", body: body })
      .then(function (r) {
        const type = r.headers.get("content-type") || "";
        if (type.indexOf("application/json") !== 0) throw new Error("not an answer");
        return r.json();
      })
      .then(function (data) {
        if (mine !== asked) return; // a later update is on its way
        showOffline(false);
        if (data.html === undefined) return; // refused before scoring (e.g. too large): the Count button says why
        result.innerHTML = data.html;
        sheet.querySelectorAll(".err").forEach(function (e) { e.textContent = ""; });
        sheet.querySelectorAll("[aria-invalid]").forEach(function (e) { e.removeAttribute("aria-invalid"); });
        (data.problems || []).forEach(function (p) {
          if (!p.field) return;
          const input = sheet.querySelector('[name="' + CSS.escape(p.field) + '"]');
          if (input) input.setAttribute("aria-invalid", "true");
          const base = p.field.replace(/\.\d+$/, "");
          const note = sheet.querySelector('.err[data-for="' + CSS.escape(base) + '"]');
          if (note) note.textContent += (p.code ? "[" + p.code + "] " : "") + p.message + " ";
        });
        const next = sheet.querySelector("button.next");
        if (next) next.hidden = !(data.carry && Object.keys(data.carry).length);
      })
      .catch(function () {
        if (mine === asked && navigator.onLine === false) showOffline(true);
        else if (mine === asked && result) result.classList.add("stale"); // the Count button still submits
      });
  };
  if (sheet) {
    if (hint) hint.hidden = false;
    sheet.addEventListener("input", function (event) {
      const named = /^p(\d+):name$/.exec(event.target.name || "");
      if (named) {  // column heads further down follow the names as they are typed
        sheet.querySelectorAll('[data-name-of="' + named[1] + '"]').forEach(function (head) {
          head.textContent = event.target.value || event.target.placeholder;
        });
      }
      clearTimeout(timer);
      timer = setTimeout(update, 120);
    });
    sheet.addEventListener("change", update);
  }
  if (navigator.onLine === false) showOffline(true);
  // the board: whole at first; zoomed (the switch checked: no script needed) it is centred on its marks
  const zoom = document.getElementById("zoom-board");
  const box = document.querySelector(".boardpic");
  const centre = function () {
    if (!box) return;
    const mark = box.querySelector(".mark.focus, .spot.focus, .mark");
    const within = mark ? mark.getBoundingClientRect() : null;
    const outer = box.getBoundingClientRect();
    if (within) {
      box.scrollLeft += within.left - outer.left - (outer.width - within.width) / 2;
      box.scrollTop += within.top - outer.top - (outer.height - within.height) / 2;
    } else {
      box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
      box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
    }
  };
  if (zoom) zoom.addEventListener("change", function () { if (zoom.checked) centre(); });
  const zoomIn = function () {  // a tapped violation or cell: the board zoomed, the mark in view
    if (zoom && !zoom.checked) zoom.checked = true;
    centre();
  };
  // tapping a violation picks out its marks on the board
  document.querySelectorAll(".violations li[data-error]").forEach(function (item) {
    item.addEventListener("click", function () {
      const marks = document.querySelectorAll('.mark[data-error~="' + item.dataset.error + '"], .badge[data-error="' + item.dataset.error + '"]');
      document.querySelectorAll(".mark.focus, .badge.focus").forEach(function (m) { m.classList.remove("focus"); });
      marks.forEach(function (m) { m.classList.add("focus"); });
      if (marks.length) { zoomIn(); marks[0].scrollIntoView({ block: "center", inline: "center", behavior: "smooth" }); }
    });
  });
  // tapping a cell of the written steps ("[-5, 6]") rings it on the board
  document.querySelectorAll("button.spot[data-cell]").forEach(function (button) {
    button.addEventListener("click", function () {
      const spot = document.querySelector('circle.spot[data-cell="' + button.dataset.cell + '"]');
      document.querySelectorAll(".spot.focus").forEach(function (s) { s.classList.remove("focus"); });
      if (!spot) return;
      spot.classList.add("focus");
      button.classList.add("focus");
      zoomIn();
      spot.scrollIntoView({ block: "center", inline: "center", behavior: "smooth" });
    });
  });
  // the deal form's pickers per seat (Gods' gods): the chosen player count's seats only; a seat beyond it
  // is hidden and not sent (without this file every seat shows, and a seat left at "—" sends nothing)
  document.querySelectorAll("form.deal").forEach(function (form) {
    const players = form.querySelector('select[name="players"]');
    const seats = form.querySelectorAll("label[data-seat]");
    if (!players || !seats.length) return;
    const fit = function () {
      const count = parseInt(players.value, 10);
      seats.forEach(function (seat) {
        const away = parseInt(seat.dataset.seat, 10) > count;
        seat.hidden = away;
        seat.querySelector("select").disabled = away;
      });
    };
    players.addEventListener("change", fit);
    fit();
  });
  document.querySelectorAll("button[data-wait]").forEach(function (b) {
    b.form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return;
      b.textContent = b.dataset.wait;
      b.disabled = true;
    });
  });
})();
