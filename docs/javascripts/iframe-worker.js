/* The site's search, opened from disk (file://).
 *
 * Material's search runs in a Web Worker, and browsers refuse to start a worker from a
 * file:// page.  This stands in for Worker on such a page only: the worker's script runs in
 * a hidden frame (a global of its own, as a worker has) and messages cross between them
 * asynchronously, as a worker's do.  It serves Material's search worker, which needs no more
 * than postMessage and the "message" event (and no importScripts for English).  Written for
 * this site; the name is the one Material's offline plugin looks for, so that the plugin
 * does not add its own copy from the network (mkdocs.yml).
 */
(function () {
  "use strict";
  if (location.protocol !== "file:") {
    return;
  }

  function later(task) {
    setTimeout(task, 0);
  }

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      const frame = document.createElement("iframe");
      frame.hidden = true;
      frame.title = "search";
      (document.body || document.documentElement).appendChild(frame);
      const inside = frame.contentWindow;
      const outside = this;
      this.inside = inside;
      this.waiting = [];
      // The script's postMessage reaches this object's "message" listeners.
      inside.postMessage = function (data) {
        later(function () {
          outside.dispatchEvent(new MessageEvent("message", { data: data }));
        });
      };
      inside.importScripts = function () {
        throw new Error("importScripts is not available to a worker run from disk");
      };
      const script = inside.document.createElement("script");
      script.src = new URL(url, location.href).href;
      script.onload = function () {
        const waiting = outside.waiting;
        outside.waiting = null;
        waiting.forEach(function (data) {
          outside.postMessage(data);
        });
      };
      inside.document.head.appendChild(script);
    }

    postMessage(data) {
      if (this.waiting !== null) {
        this.waiting.push(data);
        return;
      }
      const inside = this.inside;
      later(function () {
        inside.dispatchEvent(new inside.MessageEvent("message", { data: data }));
      });
    }

    terminate() {}
  }

  window.IFrameWorker = FrameWorker;
  window.Worker = FrameWorker;
})();
