#
# The optional edge cache of docker-compose.yml (profile `edge`): Varnish in front of the portal instances,
# caching by the portal's own rules and purged by it (docs/cache.md "The edge"; docs/operations.md "Edge cache").
#
# - Only what the portal marks shareable is kept: `Cache-Control: public, s-maxage=…` without Set-Cookie. Anything
#   `private`/`no-store` (signed-in readers' pages, errors, 404s, degraded renders) is never stored, and a request
#   carrying the portal's session, sign-in or preview cookie is passed to the portal untouched.
# - Freshness is the portal's: s-maxage (less Age). A page the portal itself answered STALE is stale here too.
#   Grace comes from `stale-while-revalidate` (served while one background fetch runs) and `stale-if-error`
#   (served only when the refetch fails or no instance is healthy).
# - Objects are keyed by the portal's `Surrogate-Key` (xkey from varnish-modules) plus one `path:{host}{path}` key,
#   so the portal purges them by tag or by URL (every query variant): `PURGE` with `X-Purge-Keys`, soft (stale,
#   refetched on the next request) or hard, from the `purgers` ACL and with the shared token only.
# - One object per page: a shared page's Host is brought to its site's domain (any case, port or trailing dot), and
#   a Host that is no site to the main site's, as the portal reads it (decision 0105), before hashing and keying.
# - /_internal, /metrics and /readyz are not reachable through the edge, in any spelling.
#
# Backends: the two compose services, health-checked on /readyz (a draining instance leaves the rotation). The
# tests substitute their addresses (test/support/varnish.ts); keep the `.host = "portal-N"; .port = "3000";` form.
#
vcl 4.1;

import blob;
import directors;
import std;
import xkey;

# A draining instance answers /readyz 503 for SHUTDOWN_DELAY_MS (5 s in docker-compose.yml) before it stops
# listening: two failed probes, 2 s apart, take it out of the rotation within that time.
probe portal_ready {
    .url = "/readyz";
    .interval = 2s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
    # Healthy from the start: an instance that is down is found by its first failed probes.
    .initial = 2;
}

backend portal_1 {
    .host = "portal-1"; .port = "3000";
    .probe = portal_ready;
    .connect_timeout = 2s;
    .first_byte_timeout = 15s;
    .between_bytes_timeout = 15s;
}

backend portal_2 {
    .host = "portal-2"; .port = "3000";
    .probe = portal_ready;
    .connect_timeout = 2s;
    .first_byte_timeout = 15s;
    .between_bytes_timeout = 15s;
}

# Who may send PURGE: this machine and private networks (the compose network). Not enough alone: a published
# port can make outside clients appear from the bridge's private address, so PURGE also needs the token.
acl purgers {
    "127.0.0.1";
    "::1";
    "10.0.0.0"/8;
    "172.16.0.0"/12;
    "192.168.0.0"/16;
    "fc00::"/7;
}

sub vcl_init {
    new portals = directors.round_robin();
    portals.add_backend(portal_1);
    portals.add_backend(portal_2);
}

sub vcl_recv {
    # Flags this VCL sets on the request are its own, never a client's.
    if (req.restarts == 0) {
        unset req.http.X-Edge-Refetch;
        unset req.http.X-Edge-Stale-If-Error;
        unset req.http.X-Purged;
    }
    if (req.method == "PURGE") {
        call portal_purge;
    }
    call portal_refuse_operations;
    set req.backend_hint = portals.backend();
    # The reader's address as the edge sees it, never a list a client started (as deploy/nginx.conf does).
    set req.http.X-Forwarded-For = client.ip;
    set req.http.Host = std.tolower(req.http.Host);
    # Article detail varies by User-Agent (phones are redirected): objects vary by the portal's own phone test
    # (server/edge/classify.ts, same expression), not by every distinct User-Agent string.
    if (req.http.User-Agent ~ "(?i)Mobi|iPhone|iPod|Android.+Mobile|Windows Phone|HarmonyOS.+Mobile|MicroMessenger.+Mobile") {
        set req.http.X-Portal-Device = "mobile";
    } else {
        set req.http.X-Portal-Device = "desktop";
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # The resizer's pictures (docs/images.md) are the same for every reader, in the one of three formats the portal
    # picks by Accept (decision 0160): Accept is cut down to that type here, so an address has at most three objects,
    # not one per browser's Accept string, and no cookie sends a reader past them.
    if (req.url ~ "^/img/") {
        if (req.http.Accept ~ "(?i)image/avif(?!\s*;\s*q=0(\.0*)?\s*(,|$))") {
            set req.http.Accept = "image/avif";
        } elsif (req.http.Accept ~ "(?i)image/webp(?!\s*;\s*q=0(\.0*)?\s*(,|$))") {
            set req.http.Accept = "image/webp";
        } else {
            set req.http.Accept = "image/jpeg";
        }
        unset req.http.Cookie;
        unset req.http.Authorization;
        call portal_site_host;
        return (hash);
    }
    # A signed-in reader (session), one signing in (state cookie) or an editor previewing drafts (docs/preview.md):
    # the portal answers them itself, and nothing of theirs is stored here.
    if (req.http.Cookie ~ "(^|;)\s*(portal_session|portal_login_state|portal_preview)=" || req.http.Authorization) {
        return (pass);
    }
    # Past stale-while-revalidate with a healthy portal: a fresh copy is fetched while the reader waits. If that
    # fails, the stale copy is looked up again with the object's whole grace (req.grace outlives a restart; the
    # portal's stale-if-error is at most 30 days).
    if (req.http.X-Edge-Stale-If-Error) {
        set req.grace = 30d;
    } elsif (req.http.X-Edge-Refetch) {
        set req.grace = 0s;
    }
    # Other cookies stay on the request (the portal ignores them) but never split the cache: the portal marks
    # public only what is the same for every reader.
    call portal_site_host;
    return (hash);
}

# A shared page is the same for every spelling of its site's Host (shared/sites.ts resolveSite: case, port and a
# trailing dot do not count, an unknown or missing Host is the main site), so it is asked for, hashed and keyed
# under the site's domain: one object per page, which a purge by URL reaches, and no object per made-up Host.
# Requests passed to the portal (signed-in readers, writes) keep the Host as sent: cookies and the same-origin
# check read it. test/deploy/varnish.test.ts holds the list of sites to shared/sites.ts.
sub portal_site_host {
    set req.http.Host = regsub(req.http.Host, "\.?(:[0-9]*)?$", "");
    if (req.http.Host == "qnnews.cn" || req.http.Host !~ "^(www|bj|tj|hebei|shanxi|nmg|ln|jl|hlj|sh|js|zj|ah|fj|jx|sd|henan|hubei|hunan|gd|cq|sc|sz)\.qnnews\.cn$") {
        set req.http.Host = "www.qnnews.cn";
    }
}

sub portal_purge {
    if (client.ip !~ purgers) {
        return (synth(403, "Forbidden"));
    }
    if (std.getenv("EDGE_PURGE_TOKEN") == "" || req.http.X-Purge-Token != std.getenv("EDGE_PURGE_TOKEN")) {
        return (synth(403, "Forbidden"));
    }
    if (!req.http.X-Purge-Keys) {
        return (synth(400, "X-Purge-Keys: the space-separated keys to purge"));
    }
    if (req.http.X-Purge-Mode == "hard") {
        set req.http.X-Purged = xkey.purge(req.http.X-Purge-Keys);
    } elsif (req.http.X-Purge-Mode == "soft") {
        set req.http.X-Purged = xkey.softpurge(req.http.X-Purge-Keys);
    } else {
        return (synth(400, "X-Purge-Mode: soft or hard"));
    }
    return (synth(200, "Purged"));
}

# The portal's operations endpoints are for the internal network. The portal routes them in any letter case
# (Express), and what it routes is only ever a canonical path (server/edge/canonical-target.ts 404s every
# other spelling); this refusal is wider, so that no layer that reads a path more loosely reaches them either.
# The path is URL-decoded three times over (`%255F` is `%5F` is `_`), lower-cased, and refused when any segment
# is the endpoint's name, alone or followed by a `;` parameter or a backslash (read as `/` by browsers and the
# portal): /%5Finternal, /METRICS, /metrics;x, /_internal%2Fpurge, //readyz, /x/../_internal. A path that does
# not decode (a stray %) is a 400, and so is one still holding an escape after three rounds (escaped four times
# over: no link of the site's is). The query is not read here and passes as sent.
sub portal_refuse_operations {
    set req.http.X-Edge-Path = regsub(req.url, "\?.*$", "");
    if (req.http.X-Edge-Path ~ "%(?![0-9A-Fa-f]{2})") {
        return (synth(400, "Bad Request"));
    }
    call portal_decode_path;
    call portal_decode_path;
    call portal_decode_path;
    if (req.http.X-Edge-Path ~ "%[0-9A-Fa-f]{2}") {
        return (synth(400, "Bad Request"));
    }
    if (std.tolower(req.http.X-Edge-Path) ~ "(^|[/\\])(_internal|metrics|readyz)([/\\;]|$)") {
        return (synth(404, "Not Found"));
    }
    unset req.http.X-Edge-Path;
}

# One round of URL-decoding of X-Edge-Path. A % that a round left without two hex digits after it (`%2525zz`) is
# no escape: it is escaped itself first, so the decoding cannot fail.
sub portal_decode_path {
    set req.http.X-Edge-Path = blob.transcode(decoding=URL, encoded=regsuball(req.http.X-Edge-Path, "%(?![0-9A-Fa-f]{2})", "%25"));
}

# One object for the variants of an address that differ only by tracking parameters no page reads (campaigns'
# utm_*, WeChat's from and isappinstalled on every shared link, …) or by the order of the others: the portal
# answers them alike (its own keys keep only the parameters a page reads). The request itself is passed on as
# sent. test/deploy/varnish.test.ts checks that no route reads a parameter named here.
sub vcl_hash {
    hash_data(regsub(std.querysort(regsuball(req.url, "(?i)(?<=[?&])(utm_[a-z0-9_]*|from|isappinstalled|spm|fbclid|gclid)=[^&]*&?", "")), "\?$", ""));
    hash_data(req.http.Host);
    return (lookup);
}

sub vcl_hit {
    if (obj.ttl >= 0s) {
        set req.http.X-Edge-Cache = "HIT";
        return (deliver);
    }
    # Stale. Within stale-while-revalidate, or after a refetch failed (stale-if-error): served, and a
    # background fetch runs (at most one per object).
    if (req.http.X-Edge-Stale-If-Error || obj.ttl + std.duration(obj.http.X-Edge-Swr + "s", 0s) > 0s) {
        set req.http.X-Edge-Cache = "STALE";
        return (deliver);
    }
    # Only stale-if-error is left: fetch while the reader waits, unless no instance is healthy.
    if (std.healthy(req.backend_hint)) {
        set req.http.X-Edge-Refetch = "1";
        return (restart);
    }
    set req.http.X-Edge-Cache = "STALE";
    return (deliver);
}

sub vcl_miss {
    set req.http.X-Edge-Cache = "MISS";
}

sub vcl_pass {
    set req.http.X-Edge-Cache = "PASS";
}

# The retry above goes to the instance that did not fail, named: the round robin, asked again, could give the
# same one when other requests took a turn meanwhile. (With more instances, list the others here.)
sub vcl_backend_fetch {
    if (bereq.retries > 0) {
        if (bereq.http.X-Edge-Failed == "portal_1") {
            set bereq.backend = portal_2;
        } else {
            set bereq.backend = portal_1;
        }
    }
    unset bereq.http.X-Edge-Failed;
}

sub vcl_backend_response {
    # A failed refresh of a stale copy leaves that copy in place instead of replacing it with the error: in the
    # background (the reader already has the copy), or while the reader waits (vcl_synth then serves it).
    if (beresp.status >= 500 && (bereq.is_bgfetch || bereq.http.X-Edge-Refetch)) {
        return (abandon);
    }
    # An instance that holds no copy of a page the CMS cannot give it now (its 503 with Retry-After), or that is
    # draining: a read is asked once more of the other instance if it is healthy; it may hold the page (each
    # instance's L1 is its own, and a Redis that came back empty holds nothing). A purged page is refused there
    # too: a purge reaches every instance before the edge (docs/cache.md).
    if (beresp.status == 503 && bereq.retries == 0 && (bereq.method == "GET" || bereq.method == "HEAD") &&
        ((beresp.backend == portal_1 && std.healthy(portal_2)) || (beresp.backend == portal_2 && std.healthy(portal_1)))) {
        set bereq.http.X-Edge-Failed = beresp.backend.name;
        return (retry);
    }
    if (bereq.uncacheable) {
        return (deliver);
    }
    # The builtin's refusals, except its "ttl <= 0" one, which would drop a stale page's grace: Set-Cookie,
    # private/no-store/no-cache, Vary: *.
    call vcl_beresp_cookie;
    call vcl_beresp_control;
    call vcl_beresp_vary;
    set beresp.http.X-Edge-Swr = regsub(beresp.http.Cache-Control, "^.*\bstale-while-revalidate=(\d+).*$", "\1");
    if (beresp.http.X-Edge-Swr !~ "^\d+$") {
        set beresp.http.X-Edge-Swr = "0";
    }
    set beresp.grace = std.duration(beresp.http.X-Edge-Swr + "s", 0s);
    if (beresp.http.Cache-Control ~ "\bstale-if-error=\d+") {
        set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*\bstale-if-error=(\d+).*$", "\1s"), 0s);
        if (beresp.grace < std.duration(beresp.http.X-Edge-Swr + "s", 0s)) {
            set beresp.grace = std.duration(beresp.http.X-Edge-Swr + "s", 0s);
        }
    }
    # The portal answered from a copy it holds stale (it is re-rendering it): stale here as well, so the next
    # reader's request fetches again instead of keeping the old page for a whole TTL. A millisecond, not 0s:
    # Varnish never hands out an object stored with a TTL of 0, not even in grace.
    if (beresp.http.X-Cache == "STALE" || beresp.ttl <= 0s) {
        set beresp.ttl = 0.001s;
    }
    if (beresp.grace <= 0s && beresp.ttl <= 0.001s) {
        call vcl_beresp_hitmiss;
    }
    # Vary by the device class computed in vcl_recv instead of the raw User-Agent; vcl_deliver says User-Agent again.
    if (beresp.http.Vary ~ "(?i)User-Agent") {
        set beresp.http.Vary = regsuball(beresp.http.Vary, "(?i)User-Agent", "X-Portal-Device");
    }
    set beresp.http.xkey = regsuball(beresp.http.Surrogate-Key, ",", " ") + " path:" + bereq.http.Host + regsuball(regsub(bereq.url, "\?.*$", ""), ",", "%2C");
    return (deliver);
}

sub vcl_backend_error {
    # An instance that did not answer (stopped, crashed): a read is tried once more, on the other instance (as
    # deploy/nginx.conf's proxy_next_upstream does), until the probes take the dead one out of the rotation. A
    # write is not: it may have been acted on.
    if (bereq.retries == 0 && (bereq.method == "GET" || bereq.method == "HEAD")) {
        set bereq.http.X-Edge-Failed = beresp.backend.name;
        return (retry);
    }
    # A write a healthy instance closed before answering: the portal cuts a request body that has not all arrived
    # within REQUEST_READ_TIMEOUT_MS (its 408 is lost, this edge was still passing the body on). Said as a 408, not
    # as the 503 of an instance that is down: a slow client is not an outage. Either way the client sends it again.
    if (bereq.method != "GET" && bereq.method != "HEAD" && std.healthy(beresp.backend)) {
        set beresp.status = 408;
        set beresp.reason = "Request Timeout";
        set beresp.http.Content-Type = "text/plain; charset=utf-8";
        set beresp.http.Cache-Control = "private, no-store";
        set beresp.http.Connection = "close";
        set beresp.body = "Request Timeout";
        return (deliver);
    }
    set beresp.http.Content-Type = "text/plain; charset=utf-8";
    set beresp.http.Cache-Control = "private, no-store";
    set beresp.http.Retry-After = "30";
    set beresp.body = "Service Unavailable";
    return (deliver);
}

# The refetch past stale-while-revalidate failed (the portal's own 5xx, abandoned above, arrives in vcl_synth;
# no instance answering, in vcl_deliver from vcl_backend_error): serve the stale copy instead (stale-if-error).
sub portal_stale_if_error {
    if (resp.status >= 500 && req.http.X-Edge-Refetch && !req.http.X-Edge-Stale-If-Error) {
        set req.http.X-Edge-Stale-If-Error = "1";
        return (restart);
    }
}

sub vcl_deliver {
    call portal_stale_if_error;
    set resp.http.X-Edge-Cache = req.http.X-Edge-Cache;
    # Varnish turns a conditional request whose tag matches into a 304 after this subroutine. A 304 tells the
    # browser to keep its copy and the CSP that came with it. The portal's shared pages carry one CSP for every
    # reader (their scripts' hashes, decision 0030), so leaving it out of the 304 changes nothing for them; it is
    # left out so that no copy's CSP can ever replace the one a reader's copy runs by.
    # A matching tag: `*`, or the object's opaque tag anywhere in If-None-Match (weak comparison).
    if (req.http.If-None-Match && resp.http.ETag && resp.status == 200 &&
        (req.http.If-None-Match == "*" || std.strstr(req.http.If-None-Match, regsub(resp.http.ETag, "^W/", "")))) {
        unset resp.http.Content-Security-Policy;
    }
    if (resp.http.Vary) {
        set resp.http.Vary = regsuball(resp.http.Vary, "X-Portal-Device", "User-Agent");
    }
    # The keys are for purging this cache, not for readers (a page's list can run to kilobytes): as Fastly does.
    unset resp.http.Surrogate-Key;
    unset resp.http.xkey;
    unset resp.http.X-Edge-Swr;
    unset resp.http.Via;
}

sub vcl_synth {
    call portal_stale_if_error;
    set resp.http.Content-Type = "text/plain; charset=utf-8";
    set resp.http.Cache-Control = "no-store";
    if (req.http.X-Purged) {
        set resp.http.X-Purged = req.http.X-Purged;
    }
    set resp.body = resp.reason + {"
"};
    return (deliver);
}
