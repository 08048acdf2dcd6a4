/// One mapping of the language as this file describes it: where it sits in a profile (for the
/// probe), where profiles/README.md documents it, and the shape of each key's value.
///
/// Only the shapes are written here. Which keys exist, which are required, the names a choice
/// accepts and integer ranges are asked of the loader itself (see `ProfileLanguage`): a key
/// listed here that the loader does not accept is left out, and a key the loader accepts that
/// is not listed here is still in the language, with a shape inferred from what the loader
/// asks of it.
struct ContextShape: Sendable {
    var id: String
    var path: ContextPath
    /// The heading of profiles/README.md that documents it, and which key table under it.
    var heading: String
    var table = 0
    var keys: [String: ValueShape]
}

enum LanguageShapes {
    private static let fields = ValueShape.list(.context("field"))
    private static let reboots = ValueShape.anyOf([.boolean, .context("reboots")])

    /// The sections and the mappings inside them (steps are described by `steps` below).
    static let sections: [ContextShape] = [
        ContextShape(id: "top", path: .top, heading: "Top level", keys: [
            "profile": .text, "description": .text, "version": .integer, "match": .context("match"),
            "defaults": .context("defaults"), "framings": .namedMap(.context("framing"), keys: .text),
            "characteristics": .namedMap(.context("characteristic"), keys: .text),
            "codes": .namedMap(.namedMap(.anyOf([.text, .context("code")]), keys: .integer), keys: .text),
            "commands": .namedMap(.context("command"), keys: .name),
            "notifications": .namedMap(.context("notification"), keys: .text),
            "resume": .context("resume"), "reboot": .context("reboot"),
            "parameters": .namedMap(.anyOf([.integer, .text, .context("parameter")]), keys: .name),
            "security": .choice, "signing-key": .text, "packages": .list(.choice), "procedure": .steps,
            "links": .context("links"),
        ]),
        ContextShape(id: "links", path: .member("links"), heading: "links", keys: [
            "serial": .context("link"), "udp": .context("link"),
        ]),
        ContextShape(id: "link", path: .member("links", "serial"), heading: "links", table: 1, keys: [
            "framing": .choice, "line-length": .integer, "buffer": .integer, "idle-timeout": .duration,
            "carries": .namedMap(.context("carried-write"), keys: .text),
            "answers": .reference(section: "characteristics"), "baud": .integer, "port": .integer,
        ]),
        ContextShape(id: "carried-write", path: .member("links", "serial", "carries", "probe"), heading: "links",
                     table: 2, keys: ["prefix": .text]),
        ContextShape(id: "match", path: .member("match"), heading: "match", keys: [
            "name": .text, "services": .list(.uuid), "manufacturer": .integer, "manufacturer-data": .text,
        ]),
        ContextShape(id: "parameter", path: .member("parameters", "probe"), heading: "parameters", keys: [
            "default": .anyOf([.integer, .text]), "values": .list(.anyOf([.integer, .text])), "min": .integer,
            "max": .integer, "reason": .text,
        ]),
        ContextShape(id: "defaults", path: .member("defaults"), heading: "defaults", keys: [
            "endian": .choice, "timeout": .duration, "retries": .integer,
        ]),
        ContextShape(id: "framing", path: .member("framings", "probe"), heading: "framings", keys: [
            "header-size": .integer, "length-offset": .integer, "length-width": .integer, "endian": .choice,
            "length-counts": .choice, "max-payload": .integer, "length-field": .choice, "checksum": .text,
            "checksum-in-length": .boolean,
        ]),
        ContextShape(id: "characteristic", path: .member("characteristics", "probe"), heading: "characteristics", keys: [
            "service": .uuid, "uuid": .uuid, "properties": .list(.choice), "write": .choice,
            "framing": .reference(section: "framings"), "segment": .anyOf([.literal("mtu"), .integer]),
            "segment-multiple": .integer,
            "subscribe": .anyOf([.boolean, .literal("notifications"), .literal("indications")]),
            "optional": .boolean, "write-interval": .duration, "att-errors": .reference(section: "codes"),
        ]),
        ContextShape(id: "code", path: .member("codes", "probe", "0x01"), heading: "codes", keys: [
            "name": .text, "message": .text, "retryable": .boolean,
        ]),
        ContextShape(id: "field", path: ContextPath(segments: [.member("commands"), .member("probe"), .member("request"), .item]),
                     heading: "Fields", keys: [
            "name": .name, "type": .choice, "count": .integer, "value": .expression,
            "map": .namedMap(.anyOf([.expression, .context("cbor-entry")]), keys: .text),
        ]),
        ContextShape(id: "cbor-entry", path: ContextPath(segments: [
            .member("commands"), .member("probe"), .member("request"), .item,
            .member("map", siblings: [ContextPath.Sibling(key: "type", value: "cbor")]), .member("probe"),
        ]), heading: "Fields", table: 1, keys: ["value": .expression, "when": .expression]),
        ContextShape(id: "command", path: .member("commands", "probe"), heading: "commands", keys: [
            "characteristic": .reference(section: "characteristics"), "timeout": .duration, "request": fields,
            "response": .context("response"), "reboots": reboots, "changes-device": .boolean,
        ]),
        ContextShape(id: "reboots", path: .member("commands", "probe", "reboots"), heading: "reboots", keys: [
            "when": .expression, "grace": .duration, "boot-timeout": .duration, "address": .choice,
        ]),
        ContextShape(id: "response", path: .member("commands", "probe", "response"), heading: "response", keys: [
            "fields": fields, "characteristic": .reference(section: "characteristics"), "match": .expressions,
            "status": .anyOf([.context("status"), .list(.context("status"))]),
        ]),
        ContextShape(id: "status", path: .member("commands", "probe", "response", "status"), heading: "status", keys: [
            "field": .text, "success": .anyOf([.integer, .list(.integer)]), "codes": .reference(section: "codes"),
            "detail": .context("detail"),
        ]),
        ContextShape(id: "detail", path: .member("commands", "probe", "response", "status", "detail"),
                     heading: "status", table: 1, keys: [
            "when": .integer, "field": .text, "codes": .reference(section: "codes"),
        ]),
        ContextShape(id: "notification", path: .member("notifications", "probe"), heading: "notifications", keys: [
            "characteristic": .reference(section: "characteristics"), "fields": fields, "status": .context("status"),
            "watch": .boolean,
        ]),
        ContextShape(id: "resume", path: .member("resume"), heading: "resume", keys: [
            "attempts": .integer, "reconnect-timeout": .duration,
        ]),
        ContextShape(id: "reboot", path: .member("reboot"), heading: "reboot", keys: [
            "grace": .duration, "boot-timeout": .duration,
        ]),
        ContextShape(id: "receipts", path: .stepValue("stream", then: "receipts"), heading: "stream", table: 1, keys: [
            "every": .expression, "notification": .reference(section: "notifications"), "as": .name,
            "expect": .expressions, "timeout": .duration,
        ]),
    ]

    /// Each step kind's mapping: its kind key and the other keys it takes.
    static let steps: [String: [String: ValueShape]] = [
        "send": ["send": .reference(section: "commands"), "reboots": reboots, "as": .name, "timeout": .duration,
                 "retries": .integer, "expect": .expressions, "optional": .boolean, "verifies": .boolean,
                 "once": .boolean],
        "if": ["if": .expression, "then": .steps, "else": .steps],
        "set": ["set": .namedMap(.expression, keys: .name)],
        "chunks": ["chunks": .context("chunks")],
        "stream": ["stream": .context("stream")],
        "check": ["check": .expression, "message": .text, "holds": .anyOf([.choice, .list(.choice)]),
                  "verifies": .boolean],
        "retry": ["retry": .context("retry")],
        "reconnect": ["reconnect": .context("reconnect")],
        "wait": ["wait": .duration],
        "fail": ["fail": .text],
        "await": ["await": .anyOf([.reference(section: "notifications"), .list(.reference(section: "notifications"))]),
                  "as": .name, "timeout": .duration, "expect": .expressions],
        "phase": ["phase": .text, "steps": .steps, "done": .expression, "achieves": .choice,
                  "repeatable": .boolean, "resumable": .boolean, "lost-on-disconnect": .boolean, "unproven": .text,
                  "unproven-holds": .anyOf([.choice, .list(.choice)])],
        "serve": ["serve": .context("serve")],
        "read": ["read": .reference(section: "characteristics"), "as": .name, "expect": .expressions,
                 "once": .boolean],
        "observe": ["observe": .text, "before": .expression, "after": .expression, "new": .expression,
                    "verifies": .boolean],
    ]

    /// The mapping a step kind takes as its value, for kinds that take one.
    static let stepValues: [String: [String: ValueShape]] = [
        "chunks": ["data": .expression, "from": .expression, "size": .expression, "as": .name, "progress": .boolean,
                   "next": .expression, "window": .expression, "aligned": .boolean, "steps": .steps],
        "stream": ["data": .expression, "from": .expression, "to": .reference(section: "characteristics"),
                   "write": .choice, "segment": .expression, "progress": .boolean, "receipts": .context("receipts")],
        "retry": ["attempts": .integer, "steps": .steps],
        "reconnect": ["address": .choice, "timeout": .duration],
        "serve": ["request": .reference(section: "notifications"), "done": .reference(section: "notifications"),
                  "until": .expression, "block": .expression, "size": .expression, "data": .expression, "as": .name,
                  "timeout": .duration, "progress": .boolean, "steps": .steps],
    ]
}
