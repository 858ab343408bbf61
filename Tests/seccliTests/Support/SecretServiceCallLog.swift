import Foundation
import TestSupport
import Testing

/// The method calls that reached the Secret Service while a script ran, as `dbus-monitor` saw them
/// on a nested private session bus, counted per step. Each step is one command; the script marks
/// where a step starts with a signal `org.seckit.Test.Step` that carries the step's name.
struct SecretServiceCallLog {
    /// Each step's exit status.
    let statuses: [String: Int32]
    /// Each step's calls to the Secret Service by name, with how often it was made: the method
    /// (`SearchItems`, `GetSecrets`, `SetSecret`, …), or for properties the method, the interface
    /// without `org.freedesktop.Secret.` and the property (`Get Item.Attributes`, `GetAll Collection`).
    let calls: [String: [String: Int]]

    /// Runs `setup` (bash, not watched), then each step's command (bash) with `dbus-monitor`
    /// watching the bus, in a nested private session of tools/with-secret-service (`$SECCLI` is
    /// seccli). Steps run in order, one at a time; a step's output is thrown away.
    init(setup: String, steps: [(name: String, command: String)]) throws {
        let script = setup + "\n" + Self.watching(steps)
        let result = try Keychain.inNestedSession(script)
        try #require(result.status == 0, "nested session: \(result.stderr)")
        let sections = result.stdoutText.components(separatedBy: "--- dbus-monitor\n")
        try #require(sections.count == 2, "\(result.stdoutText.prefix(2000))")
        var statuses: [String: Int32] = [:]
        var daemon = ""
        for line in sections[0].split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            if fields.count == 3, fields[0] == "status" { statuses[fields[1]] = Int32(fields[2]) }
            if fields.count == 2, fields[0] == "daemon" { daemon = fields[1] }
        }
        try #require(daemon.hasPrefix(":"), "no daemon name: \(sections[0])")
        self.statuses = statuses
        calls = Self.count(sections[1], daemon: daemon)
    }

    /// The bash that starts `dbus-monitor`, waits until it sees the bus, runs the steps between
    /// markers, waits for the last marker and prints the statuses, the daemon's unique name and
    /// the monitor's output.
    private static func watching(_ steps: [(name: String, command: String)]) -> String {
        var script = #"""
            daemon=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
              org.freedesktop.DBus.GetNameOwner string:org.freedesktop.secrets | awk -F'"' '/string/ { print $2 }')
            log=$(mktemp)
            dbus-monitor --session >"$log" 2>/dev/null &
            monitor=$!
            mark() { dbus-send --session --type=signal /org/seckit/test org.seckit.Test.Step "string:$1"; }
            seen() {
              for _ in $(seq 400); do grep -q "string \"$1\"" "$log" && return 0; mark "$1"; sleep 0.05; done
              echo "dbus-monitor never saw the step $1" >&2; exit 1
            }
            seen ready
            step() { mark "$1"; status=0; eval "$2" >/dev/null 2>"$err" || status=$?; echo "status $1 $status"; }

            """#
        for (name, command) in steps {
            script += "step \(name) \(shellQuoted(command))\n"
        }
        script += #"""
            mark end; seen end
            kill "$monitor"
            echo "daemon $daemon"
            echo "--- dbus-monitor"
            cat "$log"; rm -f "$log"
            """#
        return script
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// The calls to `daemon` (its unique name, or org.freedesktop.secrets) in `dbus-monitor`'s
    /// output, per step. A message is a header line followed by its arguments, indented.
    private static func count(_ output: String, daemon: String) -> [String: [String: Int]] {
        var calls: [String: [String: Int]] = [:]
        var step = ""
        var header: String?
        var strings: [String] = []
        func finish() {
            guard let header else { return }
            let member = field("member", in: header)
            if field("interface", in: header) == "org.seckit.Test", member == "Step", let name = strings.first {
                step = name
            } else if header.hasPrefix("method call "),
                [daemon, "org.freedesktop.secrets"].contains(field("destination", in: header))
            {
                var name = member
                if field("interface", in: header) == "org.freedesktop.DBus.Properties", let interface = strings.first {
                    name += " " + interface.replacing("org.freedesktop.Secret.", with: "")
                    if member != "GetAll", strings.count > 1 { name += "." + strings[1] }
                }
                calls[step, default: [:]][name, default: 0] += 1
            }
        }
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first == " " {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("string \""), trimmed.hasSuffix("\"") {
                    strings.append(String(trimmed.dropFirst("string \"".count).dropLast()))
                }
            } else {
                finish()
                header = line.isEmpty ? nil : String(line)
                strings = []
            }
        }
        finish()
        return calls
    }

    /// The value of ` name=` in a `dbus-monitor` header line (up to the next space or `;`).
    private static func field(_ name: String, in header: String) -> String {
        guard let range = header.range(of: " \(name)=") else { return "" }
        return String(header[range.upperBound...].prefix { $0 != " " && $0 != ";" })
    }
}
