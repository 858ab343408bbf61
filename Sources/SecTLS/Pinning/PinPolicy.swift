import SecCrypto

/// The pins of one host pattern: any one of them must appear in the verified chain.
///
/// ```swift
/// let pins = try PinSet(host: "**.example.com", pins: [
///     Pin(parsing: "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="),   // the current key
///     Pin(parsing: "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="),   // the backup key
/// ], expires: Date(timeIntervalSinceNow: 60 * 86400))
/// ```
public struct PinSet: Hashable, Sendable, CustomStringConvertible {
    /// Whether a mismatch refuses the connection.
    public enum Mode: String, Hashable, Sendable {
        /// A mismatch refuses the connection (`TLSError.pinMismatch`).
        case enforce
        /// A mismatch is only reported (in `PinEvaluation.warnings`), as RFC 7469's
        /// `Public-Key-Pins-Report-Only` does; the connection proceeds.
        case reportOnly
    }

    /// The hosts these pins apply to.
    public let host: HostPattern
    /// The acceptable pins (public-key pins or certificate fingerprints); never empty.
    public let pins: [Pin]
    /// After this moment the pins are not enforced any more (the evaluation says so), so an app with
    /// forgotten pins does not lock itself out for ever. Nil: no expiry.
    public let expires: Date?
    public let mode: Mode

    /// Pins for `host` (a `HostPattern`); at least one pin.
    ///
    /// - Parameters:
    ///   - host: the hosts the pins apply to.
    ///   - pins: the acceptable pins; at least one.
    ///   - expires: when the pins stop being enforced; nil (the default) for never.
    ///   - mode: whether a mismatch refuses the connection (the default) or is only reported.
    /// - Throws: ``TLSError/invalidConfiguration(_:)`` when `pins` is empty.
    public init(host: HostPattern, pins: [Pin], expires: Date? = nil, mode: Mode = .enforce) throws(TLSError) {
        guard !pins.isEmpty else { throw .invalidConfiguration("the pin set for \(host) has no pins") }
        self.host = host
        self.pins = pins
        self.expires = expires
        self.mode = mode
    }

    /// Pins for a host pattern given as text (`example.com`, `*.example.com`, `**.example.com`).
    ///
    /// - Parameters:
    ///   - host: the host pattern's text.
    ///   - pins: the acceptable pins; at least one.
    ///   - expires: when the pins stop being enforced; nil (the default) for never.
    ///   - mode: whether a mismatch refuses the connection (the default) or is only reported.
    /// - Throws: ``TLSError/invalidHostPattern(_:)`` when `host` is not a host pattern;
    ///   ``TLSError/invalidConfiguration(_:)`` when `pins` is empty.
    public init(host: String, pins: [Pin], expires: Date? = nil, mode: Mode = .enforce) throws(TLSError) {
        try self.init(host: try HostPattern(host), pins: pins, expires: expires, mode: mode)
    }

    /// True when the expiry date has passed at `now`.
    ///
    /// - Parameter now: the time to judge at.
    /// - Returns: true when the set has an expiry date and `now` is at or after it.
    public func isExpired(at now: Date) -> Bool { expires.map { now >= $0 } ?? false }

    public var description: String {
        "\(host): \(pins.map(\.description).joined(separator: ", "))" + (mode == .reportOnly ? " (report only)" : "")
    }
}

/// Every pin set of an application, how strictly RFC 7469's backup-pin rule is applied, and what
/// happens to a host no pin set covers.
///
/// For a host, the most specific matching pin set applies (an exact name before `*.` before `**.`,
/// a longer base name before a shorter one). Hosts are compared in canonical form
/// (`HostName.canonical`). A host no set matches is refused (fail closed), unless the policy says
/// `unpinnedHosts: .allow`; an empty policy pins nothing and refuses nothing.
public struct PinPolicy: Hashable, Sendable {
    /// What to do when every pin of the applying set is in the current chain — RFC 7469 §2.5 wants at
    /// least one backup pin that is not, so that losing the current key does not lock clients out.
    public enum BackupPinRule: String, Hashable, Sendable {
        /// Connect, with `PinWarning.noBackupPin` in the evaluation.
        case warn
        /// Refuse the connection (`TLSError.noBackupPin`).
        case strict
    }

    /// What a connection to a host that no pin set of a non-empty policy covers gets.
    public enum UnpinnedHostRule: String, Hashable, Sendable {
        /// Refused with `TLSError.pinMismatch` (outcome `.hostNotCovered`): a host the policy was
        /// meant for but spelled in a way no pattern foresaw is never let through unpinned.
        case refuse
        /// Connected without pins (outcome `.notPinned`): for a client that talks to pinned and
        /// unpinned hosts alike.
        case allow
    }

    public let pinSets: [PinSet]
    public let backupPinRule: BackupPinRule
    public let unpinnedHosts: UnpinnedHostRule
    /// Where RFC 7469 pin-failure reports go (`PinFailureReport`): a mismatch of an unexpired pin
    /// set, enforced or report-only, is POSTed there in the background, once per host, port, pin
    /// set and failure every 10 minutes. Nil: no reports.
    public let reportURI: PinReportURI?

    /// A policy of `pinSets`.
    ///
    /// - Parameters:
    ///   - pinSets: the pin sets; empty pins nothing.
    ///   - backupPinRule: what to do when no backup pin is outside the current chain.
    ///   - unpinnedHosts: what a host that no pin set covers gets; refused unless `.allow`.
    ///   - reportURI: where pin-failure reports are sent; nil (the default) for none.
    public init(
        _ pinSets: [PinSet],
        backupPinRule: BackupPinRule = .warn,
        unpinnedHosts: UnpinnedHostRule = .refuse,
        reportURI: PinReportURI? = nil
    ) {
        self.pinSets = pinSets
        self.backupPinRule = backupPinRule
        self.unpinnedHosts = unpinnedHosts
        self.reportURI = reportURI
    }

    /// One enforced pin set for exactly `host`: what `seccli pin --expect` and curl's `--pinnedpubkey` do.
    ///
    /// - Parameters:
    ///   - host: the host pattern (`HostPattern`) the pins are for.
    ///   - pins: the acceptable pins; at least one.
    ///   - backupPinRule: what to do when no backup pin is outside the current chain.
    ///   - reportURI: where pin-failure reports are sent; nil (the default) for none.
    /// - Throws: `TLSError.invalidHostPattern` or `invalidConfiguration` (no pins).
    public init(
        host: String,
        pins: [Pin],
        backupPinRule: BackupPinRule = .warn,
        reportURI: PinReportURI? = nil
    ) throws(TLSError) {
        self.init([try PinSet(host: host, pins: pins)], backupPinRule: backupPinRule, reportURI: reportURI)
    }

    /// True when a connection to a host that no pin set covers must be refused.
    var refusesUncoveredHosts: Bool { !pinSets.isEmpty && unpinnedHosts == .refuse }

    /// The pin set that applies to `host`, if any.
    ///
    /// - Parameter host: the host connected to, in any case (compared in canonical form).
    /// - Returns: the most specific pin set whose pattern matches `host`, or nil when none does.
    public func pinSet(for host: String) -> PinSet? {
        let host = HostPattern.normalize(host)
        return pinSets.filter { $0.host.matches(normalized: host) }.max { $0.host.specificity < $1.host.specificity }
    }
}
