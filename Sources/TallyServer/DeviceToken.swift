import Crypto
import Foundation
import TallySyncWire

/// A device's bearer token: 32 random bytes, shown once as base64url (no padding); the server
/// keeps only their SHA-256.
enum DeviceToken {
    static let byteCount = 32

    /// New random token bytes (the system's cryptographic generator).
    static func generate() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    static func text(_ bytes: [UInt8]) -> String { Base64URL.text(bytes) }

    /// The token's bytes, or nil when the text is not base64url of 32 bytes.
    static func bytes(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 64, let bytes = Base64URL.bytes(text), bytes.count == byteCount else { return nil }
        return bytes
    }
}
