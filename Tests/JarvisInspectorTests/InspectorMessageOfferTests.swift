import JarvisCore
import Testing

@testable import JarvisInspector

/// What a face offers beside a message, decided once for every face: Undo after a change it
/// made, never after a refusal or a warning, never where editing is off; Redo after an undo.
@Suite struct InspectorMessageOfferTests {
    @Test func aChangeThatWentThroughOffersUndoWhereEditingIsAllowed() {
        let saved = InspectorMessage("saved name")
        #expect(saved.offeringUndo(canEdit: true).offer == .undo)
        #expect(saved.offeringUndo(canEdit: false).offer == nil)
        #expect(InspectorMessage("set refused: …", .error).offeringUndo(canEdit: true).offer == nil)
        #expect(InspectorMessage("saved, with a note", .warning).offeringUndo(canEdit: true).offer == nil)
        #expect(InspectorMessage.Offer.undo.label == "Undo" && InspectorMessage.Offer.redo.label == "Redo")
    }
}
