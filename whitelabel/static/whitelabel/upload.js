// Sends a chosen file (or a photo from the phone's camera) straight to its upload URL:
// 1. ask the server for an upload link for this pending item;
// 2. PUT the file there (S3 or the service's own URL), showing progress;
// 3. ask the server whether the file was accepted, then reload the claim page.
// Type and size are checked here first; the server checks them again.
(function () {
  "use strict";

  var TYPES_BY_MEDIA = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png",
                        "image/heic": "heic", "image/heif": "heif"};

  function extensionOf(name) {
    var dot = name.lastIndexOf(".");
    return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  }

  // Camera pictures may come without a usable name: name them after their type.
  function uploadName(file, allowed) {
    if (allowed.indexOf(extensionOf(file.name)) !== -1) { return file.name; }
    var extension = TYPES_BY_MEDIA[file.type];
    return extension ? "foto-" + Date.now() + "." + extension : file.name;
  }

  function postForm(url, form, fields) {
    var body = new FormData();
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    Object.keys(fields).forEach(function (key) { body.append(key, fields[key]); });
    return fetch(url, {method: "POST", body: body, credentials: "same-origin"})
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          if (!response.ok) {
            throw new Error(data.mensagem || "Não foi possível enviar agora.");
          }
          return data;
        });
      }, function () { throw new Error("Sem conexão. Confira sua internet."); });
  }

  function put(url, file, contentType, onProgress) {
    return new Promise(function (resolve, reject) {
      var request = new XMLHttpRequest();
      request.open("PUT", url);
      request.setRequestHeader("Content-Type", contentType);
      request.upload.onprogress = function (event) {
        if (event.lengthComputable) { onProgress(Math.round(100 * event.loaded / event.total)); }
      };
      request.onload = function () {
        if (request.status >= 200 && request.status < 300) { resolve(); return; }
        if (request.status === 422 || request.status === 415 || request.status === 413) {
          // The file itself was refused: sending it again would be refused again.
          var refused = new Error(request.status === 413
            ? "O arquivo é grande demais; escolha outro."
            : "O arquivo parece corrompido ou incompleto; escolha outro.");
          refused.chooseAnother = true;
          reject(refused);
          return;
        }
        reject(new Error("O envio falhou. Tente de novo."));
      };
      request.onerror = function () { reject(new Error("A conexão caiu durante o envio.")); };
      request.send(file);
    });
  }

  function setUp(form) {
    var allowed = form.dataset.extensions.split(",");
    var maxBytes = parseInt(form.dataset.maxBytes, 10);
    var progressBox = form.querySelector(".upload-progress");
    var progress = progressBox.querySelector("progress");
    var status = form.querySelector(".upload-status");
    var retry = form.querySelector(".retry");
    var inputs = form.querySelectorAll("input[type=file]");
    var lastFile = null;

    function busy(on) {
      inputs.forEach(function (input) { input.disabled = on; });
      progressBox.hidden = !on;
    }

    function fail(message) {
      busy(false);
      status.textContent = message;
      status.className = "upload-status problem";
      retry.hidden = lastFile === null;
    }

    function send(file) {
      lastFile = file;
      retry.hidden = true;
      status.className = "upload-status";
      var name = uploadName(file, allowed);
      if (allowed.indexOf(extensionOf(name)) === -1) {
        lastFile = null;
        fail("Tipo de arquivo não aceito. Envie PDF, JPG, PNG ou HEIC.");
        return;
      }
      if (file.size === 0) { lastFile = null; fail("O arquivo está vazio."); return; }
      if (file.size > maxBytes) {
        lastFile = null;
        fail("O arquivo passa de " + Math.floor(maxBytes / 1048576) + " MB.");
        return;
      }
      busy(true);
      progress.value = 0;
      progressBox.querySelector(".file-name").textContent = name;
      status.textContent = "";
      postForm(form.action, form, {"tipo": form.querySelector("[name=tipo]").value,
                                   "nome-arquivo": name, "tamanho": String(file.size)})
        .then(function (link) {
          return put(link.url, file, link["tipo-de-conteudo"], function (percent) {
            progress.value = percent;
          }).then(function () { return postForm(link.confirmar, form, {}); });
        })
        .then(function (result) {
          if (result.situacao === "recebido") {
            progress.value = 100;
            status.textContent = "Arquivo recebido. Atualizando a página…";
            window.location.reload();
          } else {
            lastFile = null;  // the same file would be refused again: choose another
            fail(result.mensagem);
          }
        })
        .catch(function (error) {
          if (error.chooseAnother) { lastFile = null; }  // no "Tentar de novo"
          fail(error.message);
        });
    }

    inputs.forEach(function (input) {
      input.addEventListener("change", function () {
        if (input.files.length) { send(input.files[0]); }
        input.value = "";
      });
    });
    retry.addEventListener("click", function () { if (lastFile) { send(lastFile); } });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
  }

  document.querySelectorAll("form.upload").forEach(setUp);
}());
