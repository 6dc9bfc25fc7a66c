// The payment form shows only the chosen method's fields. Each group of one method's
// fields names its methods (data-metodos); without this script every group shows, its
// legend saying which method it is for, and the server reads only the chosen method's.
(function () {
  "use strict";

  function follow(form) {
    var radios = form.querySelectorAll("input[type=radio][name$='metodo_pagamento']");
    var groups = form.querySelectorAll("[data-metodos]");
    if (!radios.length || !groups.length) { return; }

    function show() {
      var chosen = "";
      radios.forEach(function (radio) { if (radio.checked) { chosen = radio.value; } });
      groups.forEach(function (group) {
        group.hidden = group.getAttribute("data-metodos").split(" ").indexOf(chosen) === -1;
      });
    }

    radios.forEach(function (radio) { radio.addEventListener("change", show); });
    show();
  }

  document.querySelectorAll("form").forEach(follow);
}());
