import Foundation
import JarvisCore
import Testing

@testable import JarvisInspector

/// The decisions behind the panel on a device, made by the model and checked on Linux: where
/// the panel presents from, which keyboard a field asks for, how far an editor grows, what
/// VoiceOver hears, the READ-ONLY banner's contrast, how a secret is copied, and when a
/// swipe-down must ask first.
@Suite struct PanelDeviceDecisionsTests {
    typealias Link = PanelPresenterChoice.Link

    @Test func thePanelPresentsFromTheTopOfTheChainOverTheHostsOwnSheets() {
        // Root alone: the root presents.
        #expect(PanelPresenterChoice.choose([Link()]) == .present(from: 0))
        // Root → host sheet → host alert: the alert presents (the root already presents).
        #expect(PanelPresenterChoice.choose([Link(), Link(), Link()]) == .present(from: 2))
        // The host's alert is on its way out: its presenter stays and presents.
        #expect(PanelPresenterChoice.choose([Link(), Link(), Link(isBeingDismissed: true)]) == .present(from: 1))
        // The root itself is never skipped.
        #expect(PanelPresenterChoice.choose([Link(isBeingDismissed: true)]) == .present(from: 0))
    }

    @Test func thePanelSaysWhyItCannotPresent() {
        #expect(PanelPresenterChoice.choose([]) == .refused(.noController))
        #expect(PanelPresenterChoice.choose([Link(), Link(isPanel: true)]) == .refused(.alreadyShowing))
        for refusal in [PanelPresenterChoice.Refusal.noController, .alreadyShowing] {
            #expect(refusal.message.hasPrefix("Jarvis"))
        }
        #expect(PanelPresenterChoice.Refusal.noController.message.contains("viewDidAppear"))
    }

    @Test func textValuesGetTheUsersKeyboardAndMachineTextAnASCIIOne() {
        #expect(PanelTextTraits(.text).keyboard == .standard)
        #expect(PanelTextTraits(.search).keyboard == .standard)
        #expect(PanelTextTraits(.name).keyboard == .ascii)
        #expect(PanelTextTraits(.base64).keyboard == .ascii)
        #expect(PanelTextTraits(.json).keyboard == .ascii)
        #expect(PanelTextTraits(.number).keyboard == .numbers)
        // No field lets the keyboard change what was typed (`It's` must stay `It's`).
        for kind in PanelTextTraits.Kind.allCases { #expect(!PanelTextTraits(kind).allowsTypingHelp) }
        #expect(PanelTextTraits(.text).isMultiline)
        #expect(!PanelTextTraits(.name).isMultiline)
        #expect(!PanelTextTraits(.search).isMultiline)
    }

    @Test func aDraftsFieldKindFollowsItsEditor() {
        let place = PreferenceAddress(scanner: "defaults", container: "app", key: "k")
        func kind(_ type: PreferenceType) -> PanelTextTraits.Kind? {
            ValueDraft(address: place, type: type, text: "", expectedRevision: nil).textKind
        }
        #expect(kind(.string) == .text)
        #expect(kind(.integer) == .number)
        #expect(kind(.real) == .number)
        #expect(kind(.data) == .base64)
        #expect(kind(.dictionary) == .json)
        #expect(kind(.boolean) == nil)
        #expect(kind(.date) == nil)
    }

    @Test func anEditorGrowsAsTheValueDoesUpToEightLines() {
        #expect(PanelTextTraits.lines(for: "", columns: 30) == 1)
        #expect(PanelTextTraits.lines(for: "short", columns: 30) == 1)
        // Typing past one line's width makes it two, then three.
        #expect(PanelTextTraits.lines(for: String(repeating: "a", count: 31), columns: 30) == 2)
        #expect(PanelTextTraits.lines(for: String(repeating: "日", count: 61), columns: 30) == 3)
        #expect(PanelTextTraits.lines(for: "a\nb\nc", columns: 30) == 3)
        #expect(PanelTextTraits.lines(for: "a\n", columns: 30) == 2)
        // A 10 MB value stops at eight lines (and scrolls), without counting all of it.
        #expect(PanelTextTraits.lines(for: String(repeating: "x\n", count: 5_000_000), columns: 30) == 8)
        #expect(PanelTextTraits.lines(for: "abc", columns: 0) == 3)
    }

    @Test func everyMessageIsAnnouncedAndAProblemSaysSo() {
        #expect(PanelMessage(InspectorMessage("Saved theme")).announcement == "Saved theme")
        #expect(PanelMessage(InspectorMessage("Deleted theme", .warning)).announcement == "Warning: Deleted theme")
        #expect(
            PanelMessage(InspectorMessage("delete refused: read-only", .error)).announcement
                == "Error: delete refused: read-only")
    }

    @Test func theReadOnlyBannerHasAtLeast4_5To1Contrast() {
        let ratio = PanelColor.readOnlyText.contrast(with: PanelColor.readOnlyBackground)
        #expect(ratio >= 4.5)
        // The system orange the banner used before fails (about 2.2:1).
        let systemOrange = PanelColor(red255: 255, green255: 149, blue255: 0)
        #expect(PanelColor.readOnlyText.contrast(with: systemOrange) < 4.5)
        // The formula's ends: black on white is 21:1, a colour on itself 1:1.
        #expect(abs(PanelColor(red: 0, green: 0, blue: 0).contrast(with: .readOnlyText) - 21) < 0.001)
        #expect(PanelColor.readOnlyBackground.contrast(with: .readOnlyBackground) == 1)
    }

    @Test func aCopiedSecretStaysOnThisDeviceAndExpires() {
        let place = PreferenceAddress(scanner: "secrets", container: "app", key: "token")
        func row(_ flags: [InspectorRow.Flag]) -> InspectorRow {
            InspectorRow(
                target: .key(place), title: "token", subtitle: nil, type: .string, preview: "", count: nil,
                flags: flags, problem: nil, isOpenable: false, isEditable: true, isDeletable: true,
                isRevealable: true)
        }
        let secret = PanelCopyPolicy(copying: .value, of: row([.masked, .revealed]))
        #expect(secret.isLocalOnly)
        #expect(secret.lifetime == PanelCopyPolicy.secretLifetime)
        // Its name and pointer are no secret; a plain value is copied as usual.
        #expect(!PanelCopyPolicy(copying: .key, of: row([.masked, .revealed])).isLocalOnly)
        #expect(!PanelCopyPolicy(copying: .pointer, of: row([.revealed])).isLocalOnly)
        let plain = PanelCopyPolicy(copying: .value, of: row([]))
        #expect(!plain.isLocalOnly)
        #expect(plain.lifetime == nil)
    }

    @Test func aSwipeDownAsksOnlyWhenTheDraftWasEdited() {
        let place = PreferenceAddress(scanner: "defaults", container: "app", key: "volume")
        let german = Locale(identifier: "de_DE")
        let number = ValueDraft(address: place, type: .real, text: "0.5", expectedRevision: nil)
        // The editor starts at "0,5" in German: untouched, nothing to lose.
        #expect(!number.isEdited("0,5", locale: german))
        #expect(number.isEdited("0,75", locale: german))
        let text = ValueDraft(address: place, type: .string, text: "It's", expectedRevision: nil)
        #expect(!text.isEdited("It's", locale: german))
        #expect(text.isEdited("It’s", locale: german))
    }
}

extension PanelDeviceDecisionsTests {
    @Test func aSearchFindsWhatWasTypedEvenWhenTheKeyboardCurledItsQuotes() {
        #expect(PanelTextTraits.straightened("It’s") == "It's")
        #expect(PanelTextTraits.straightened("“on”") == "\"on\"")
        #expect(PanelTextTraits.straightened("plain") == "plain")
        #expect(InspectorFilter(PanelTextTraits.straightened("It’s")).text == "It's")
    }
}
