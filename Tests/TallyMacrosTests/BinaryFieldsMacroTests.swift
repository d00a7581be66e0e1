import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import TallyMacros
import XCTest

/// The layout macros (`Docs/Architecture.md`, "Binary layouts"): the decoder and encoder are
/// the struct's stored properties in declaration order, nothing else.
final class BinaryFieldsMacroTests: XCTestCase {
    let macros: [String: Macro.Type] = ["WireFields": WireFieldsMacro.self, "StateFields": StateFieldsMacro.self]

    func testWireFieldsReadsAndWritesStoredPropertiesInDeclarationOrder() {
        assertMacroExpansion(
            """
            @WireFields
            public struct WalletClosed: Hashable {
                public let walletID: WalletID
                public var closedOn: LocalDate { didSet { } }
                public let schema = 2
                public static let tag = 7
                public var isOld: Bool { closedOn.year < 2000 }
                lazy var cache: Int = 0
            }
            """,
            expandedSource: """
            public struct WalletClosed: Hashable {
                public let walletID: WalletID
                public var closedOn: LocalDate { didSet { } }
                public let schema = 2
                public static let tag = 7
                public var isOld: Bool { closedOn.year < 2000 }
                lazy var cache: Int = 0
            }

            extension WalletClosed {
                package init(from reader: inout BinaryReader) throws(EventCodecError) {
                    self.walletID = try reader.read()
                    self.closedOn = try reader.read()
                }

                package func write(to writer: inout BinaryWriter) {
                    self.walletID.write(to: &writer)
                    self.closedOn.write(to: &writer)
                }
            }
            """,
            macros: macros)
    }

    func testStateFieldsUsesTheCheckpointReaderInternally() {
        assertMacroExpansion(
            """
            @StateFields
            struct Record {
                var name: String
                let amount: Money, date: LocalDate
            }
            """,
            expandedSource: """
            struct Record {
                var name: String
                let amount: Money, date: LocalDate
            }

            extension Record {
                init(from reader: inout StateReader) throws(ProjectionError) {
                    self.name = try reader.read()
                    self.amount = try reader.read()
                    self.date = try reader.read()
                }

                func encode(to writer: inout BinaryWriter) {
                    self.name.encode(to: &writer)
                    self.amount.encode(to: &writer)
                    self.date.encode(to: &writer)
                }
            }
            """,
            macros: macros)
    }

    func testAnEnumIsRefusedWithAnError() {
        assertMacroExpansion(
            """
            @WireFields
            enum Kind { case a }
            """,
            expandedSource: """
            enum Kind { case a }
            """,
            diagnostics: [DiagnosticSpec(
                message: "@WireFields describes the stored properties of a struct; write an enum's or a class's coding by hand",
                line: 1, column: 1)],
            macros: macros)
    }
}
