"""Write log.jsonl: a crossed helpdesk data set (8 techniques x 12 entities).

Every sentence below was written by hand, one at a time; nothing is generated
from a template. Run with: python make_log.py
"""

import json
import random
from collections import Counter
from pathlib import Path

SEED = 20240611
KINDS = ["move", "strategy", "error", "insight"]

FAMILY = {
    "reset_password": "account_access",
    "grant_access": "account_access",
    "reseat_cable": "hardware_fix",
    "replace_part": "hardware_fix",
    "reinstall_app": "software_maintenance",
    "update_driver_firmware": "software_maintenance",
    "free_disk_space": "storage_data",
    "restore_backup": "storage_data",
}

ENTITIES = [
    "priya",
    "new_intern",
    "dave_sales",
    "office_manager",
    "tom_laptop",
    "reception_printer",
    "boardroom_display",
    "warehouse_tablet",
    "marketing_imac",
    "shared_drive",
    "frontdesk_pc",
    "mailroom_scanner",
]

# technique -> 12 (entity, sentence) pairs. Kind cycles move/strategy/error/insight
# by position in each list; the entity order is rotated per technique.
SENTENCES = {
    "reset_password": [
        (
            "priya",
            "Priya in accounts locked herself out after the bank holiday; unlocked "
            "the account and gave her a temp password she changed at first login.",
        ),
        (
            "new_intern",
            "Plan for the new intern: one-time passcode today, forced change at next "
            "sign-in, then confirm with him once HR has his badge sorted.",
        ),
        (
            "dave_sales",
            "tried resetting dave's credentials from the admin portal but it won't "
            "sync down to his laptop, still rejecting the new one",
        ),
        (
            "office_manager",
            "Janet (office manager) kept getting 'password expired'. The expiry "
            "warning emails were landing in junk. Reset it, she's back in at 9:40.",
        ),
        (
            "tom_laptop",
            "Nobody knew the local admin login on Tom's laptop so I rotated it via "
            "LAPS and put the new one in the vault.",
        ),
        (
            "reception_printer",
            "Not leaving the reception printer on the factory admin PIN any longer. "
            "Changed it on the web panel and recorded it in the wiki.",
        ),
        (
            "boardroom_display",
            "Boardroom screen's room account couldn't sign in overnight. Generated a "
            "fresh secret for the resource mailbox, device still shows 'sign-in "
            "error'.",
        ),
        (
            "warehouse_tablet",
            "warehouse tab was asking for a PIN nobody knew. cleared it from MDM and "
            "set a new one. lesson: write these down somewhere",
        ),
        (
            "marketing_imac",
            "Reset the login on the iMac in marketing from recovery mode, keychain had to be recreated afterwards.",
        ),
        (
            "shared_drive",
            "Service account behind the S: drive has an expiring credential. Rolling "
            "a new one in stages so the backup job doesn't break, about half done.",
        ),
        (
            "frontdesk_pc",
            "Front desk PC wouldn't take the new passphrase at first (caps lock, "
            "honestly). Second go after the reset was fine.",
        ),
        (
            "mailroom_scanner",
            "Scan-to-email on the mailroom scanner broke because someone changed the "
            "mailbox password. Updated the stored login on the device, test scan "
            "arrived.",
        ),
    ],
    "grant_access": [
        (
            "office_manager",
            "Added Janet to Finance-Read so the office manager can see the budget folder. Confirmed with her at 2pm.",
        ),
        (
            "tom_laptop",
            "Rather than hand out local admin, I put Tom's laptop in the 'dev tools' "
            "policy group so he can install what he needs himself.",
        ),
        (
            "reception_printer",
            "Wanted the temps to be able to release jobs at the printer in reception, "
            "but the badge permission didn't take. Card reader still says 'not "
            "authorised'.",
        ),
        (
            "boardroom_display",
            "boardroom TV couldn't show bookings because the room account had no "
            "rights on the calendar. Granted delegate access, meetings appear now.",
        ),
        (
            "warehouse_tablet",
            "Assigned the warehouse Galaxy tab to the stock-pickers group in Intune; "
            "inventory app showed up within ten min.",
        ),
        (
            "marketing_imac",
            "Marketing's iMac needs to reach the brand assets library. Asked the "
            "owner to approve; will apply the share rights once she replies.",
        ),
        (
            "shared_drive",
            "Gave the projects team modify rights on their S drive folder. "
            "Inheritance is broken further down, so half of them still get access "
            "denied.",
        ),
        (
            "frontdesk_pc",
            "The front desk computer couldn't open the visitor log. That share is "
            "permissioned per machine, not per user, so I added the computer object "
            "to the group and rebooted.",
        ),
        (
            "mailroom_scanner",
            "granted the mailroom scan station write access to the Inbound Post folder, scans land there now",
        ),
        (
            "priya",
            "Priya from AP needed the vendor portal. Instead of sharing someone's "
            "login I made her an account with approver rights only.",
        ),
        (
            "new_intern",
            "Intern was added to Interns-Staff yesterday and still can't open the "
            "SharePoint site, membership shows but it throws a 403. Escalated to "
            "the M365 admins.",
        ),
        (
            "dave_sales",
            "Dave in sales lost the CRM when he changed teams: old group removed, "
            "new one never added. Put him in the right group, he's in.",
        ),
    ],
    "reseat_cable": [
        (
            "boardroom_display",
            "HDMI into the boardroom display was hanging half out. Pushed it home, clipped it down, picture's back.",
        ),
        (
            "warehouse_tablet",
            "The warehouse tablet keeps losing charge in its cradle, so I'm swapping "
            "the frayed USB-C lead for a braided one and zip-tying it where the "
            "pickers can't yank it.",
        ),
        (
            "marketing_imac",
            "Reseated the Thunderbolt lead between the marketing Mac and its second "
            "monitor twice. Still flickering. Probably the monitor, not the cable.",
        ),
        (
            "shared_drive",
            "'Shared drive is slow' tickets: the NAS uplink had negotiated at "
            "100Mb. New cat6 patch lead and it's back at gigabit. Check link speed "
            "first next time.",
        ),
        (
            "frontdesk_pc",
            "unplugged and replugged the network cable for the front desk pc, it was loose in the floor box",
        ),
        (
            "mailroom_scanner",
            "Going to run a direct USB cable from the mailroom scanner to its PC "
            "instead of going through that hub. Cable ordered, fitting it Thursday.",
        ),
        (
            "priya",
            "Replaced the cable between Priya's laptop and her dock with a new one, "
            "but the screens still don't wake after lunch. Not the cable then.",
        ),
        (
            "new_intern",
            "New intern's keyboard 'randomly dies'. It was plugged into the "
            "monitor's USB passthrough; moved the lead straight into the laptop and "
            "no drop-outs since.",
        ),
        (
            "dave_sales",
            "Dave O's headset was crackly, the jack was only half in. Pushed it "
            "firmly into the rear port and the noise went.",
        ),
        (
            "office_manager",
            "For the office manager's desk I re-routed every cable through the tray "
            "and reseated each one, so nothing is tugging on the DisplayPort any "
            "more.",
        ),
        (
            "tom_laptop",
            "No ethernet on Tom's laptop. The first spare patch cord was dead too, "
            "third one worked. Binned the two bad ones.",
        ),
        (
            "reception_printer",
            "The reception printer kept dropping offline; its network lead was "
            "pinched under a cabinet wheel. Swapped it. Worth checking floor cables "
            "round there.",
        ),
    ],
    "replace_part": [
        (
            "shared_drive",
            "Swapped the failed disk in bay 3 of the NAS that holds the shared "
            "drive. Rebuild finished overnight, array reports healthy.",
        ),
        (
            "frontdesk_pc",
            "Front-desk machine's PSU is whining. Fitting a spare power supply after "
            "hours tonight so the desk isn't left without a computer.",
        ),
        (
            "mailroom_scanner",
            "Fitted a new pickup roller kit to the mailroom scanner, still "
            "double-feeds. Could be the wrong part number, checking with the "
            "vendor.",
        ),
        (
            "priya",
            "Accounts (Priya) reported the PC 'lagging'. It was her mouse dying. "
            "Handed her a new one from the cupboard, fixed.",
        ),
        ("new_intern", "new intern got a replacement keyboard, the one on his desk had a sticky spacebar"),
        (
            "dave_sales",
            "Rather than get Dave's cracked phone screen repaired a second time, "
            "swapped the handset for a spare from stock and moved his SIM over.",
        ),
        ("office_manager", "Put a new battery in Janet's laptop. It still dies at 40%. Charger is next on the list."),
        (
            "tom_laptop",
            "Tom's ThinkPad was crawling because of a bad RAM stick (memtest threw "
            "errors). New 16GB module in, boots in under 20 seconds now.",
        ),
        ("reception_printer", "Changed the fuser unit in the reception MFP; smudged pages have stopped."),
        (
            "boardroom_display",
            "Decided to replace the compute unit behind the boardroom display "
            "instead of chasing its noisy fan any further. Spare swapped in, boots "
            "fine.",
        ),
        (
            "warehouse_tablet",
            "ordered a new screen for the warehouse tab and fitted it. touch only works on the left half. ugh.",
        ),
        (
            "marketing_imac",
            "The marketing iMac's SSD had been throwing SMART warnings for weeks. "
            "New drive fitted; note to self, check SMART on the older Macs.",
        ),
    ],
    "reinstall_app": [
        (
            "priya",
            "Excel crashed on open for priya in accounts. Removed Office completely "
            "and put it back on; her big workbook opens without issue.",
        ),
        (
            "new_intern",
            "For the intern's laptop I'm wiping the half-broken Adobe install and "
            "doing a clean one from Company Portal. Download still running.",
        ),
        (
            "dave_sales",
            "Uninstalled and reinstalled the CRM add-in for Outlook on Dave's "
            "machine, the ribbon button still doesn't appear.",
        ),
        (
            "office_manager",
            "Janet's Teams stuck on a white screen. A repair did nothing, but a full "
            "removal plus fresh install sorted it. Probably a corrupt cache folder.",
        ),
        ("tom_laptop", "reinstalled vpn client on toms laptop, connects first time now"),
        (
            "reception_printer",
            "The secure-release app on the reception printer's panel was "
            "half-updated. Pulled it off the device and loaded it again from the "
            "vendor package.",
        ),
        (
            "boardroom_display",
            "Took the Teams Rooms app off the boardroom screen and put it back on. "
            "It's been stuck on 'configuring' for 45 minutes.",
        ),
        (
            "warehouse_tablet",
            "Stock app on the warehouse tablet kept force-closing. Deleted it and "
            "pushed it again through MDM, the old copy had a corrupted local "
            "database.",
        ),
        (
            "marketing_imac",
            "Dragged Creative Cloud to the bin on the design iMac, ran Adobe's "
            "cleaner tool and installed it again. Fonts are syncing.",
        ),
        (
            "shared_drive",
            "The shared drive mapping broke after the sync client auto-updated. "
            "Uninstalled it, put the pinned version back on and blocked "
            "auto-updates; mapping holds.",
        ),
        (
            "frontdesk_pc",
            "Visitor sign-in software on the front desk PC refused to go back on the "
            "first time (error 1603); ran the installer as admin and it went "
            "through.",
        ),
        (
            "mailroom_scanner",
            "The mailroom scanning software had been installed twice into different "
            "folders, which is why the profiles kept vanishing. Removed both, one "
            "clean install now.",
        ),
    ],
    "update_driver_firmware": [
        (
            "office_manager",
            "Pushed the latest graphics driver to the office manager's laptop, her "
            "external monitor now runs at its native resolution.",
        ),
        (
            "tom_laptop",
            "Tom's laptop is on a two-year-old BIOS. Staging the update for Friday "
            "evening so it doesn't reboot in the middle of his meetings.",
        ),
        (
            "reception_printer",
            "Flashed new firmware onto the reception printer. It aborted at 80% and "
            "is sitting on a maintenance screen. Vendor call logged.",
        ),
        (
            "boardroom_display",
            "boardroom display audio cutting out, and the vendor release notes "
            "mention exactly that bug. Upgraded it to 4.2, calls are clean now.",
        ),
        (
            "warehouse_tablet",
            "Applied the pending system update on the warehouse tab; the scan trigger responds again.",
        ),
        (
            "marketing_imac",
            "The Wacom stopped working on the marketing Mac after the macOS upgrade. "
            "Went for the newer Wacom driver instead of rolling the OS back.",
        ),
        (
            "shared_drive",
            "Upgraded the NAS firmware under the shared drive; after the reboot the "
            "SMB shares didn't come back. Rolled back, still investigating.",
        ),
        (
            "frontdesk_pc",
            "Badge printer on the front desk computer quit after Patch Tuesday. "
            "Manufacturer's driver fixed it; the one Windows Update pulls in is "
            "generic and lacks the card options.",
        ),
        (
            "mailroom_scanner",
            "Grabbed the newest TWAIN driver for the Fujitsu in the mailroom and installed it. Duplex works.",
        ),
        (
            "priya",
            "Priya's dock kept disconnecting. Before swapping any hardware I "
            "brought the dock firmware and the Realtek LAN driver up to date "
            "together. No drops today.",
        ),
        (
            "new_intern",
            "Intern's wifi keeps dropping so I moved the wireless adapter to the "
            "newest driver version. Made no difference at all.",
        ),
        (
            "dave_sales",
            "dave's bluetooth headset was mono-only on calls. newer bluetooth stack "
            "from intel sorted it, the hands-free profile was the issue",
        ),
    ],
    "free_disk_space": [
        (
            "boardroom_display",
            "The boardroom display's media player was full of old slideshow files. "
            "Deleted the stale ones, 9 GB back, signage loads again.",
        ),
        (
            "warehouse_tablet",
            "Warehouse tablet storage at 98%. Moving photo captures to the cloud and "
            "setting auto-delete after 30 days; upload still going.",
        ),
        (
            "marketing_imac",
            "Cleared caches and old render files on the marketing iMac and only "
            "recovered 4GB, nowhere near enough for the video project.",
        ),
        (
            "shared_drive",
            "S drive hit its quota again. Culprit was 200 GB of one person's phone "
            "backups. Moved them off and set up a monthly storage report.",
        ),
        ("frontdesk_pc", "Ran disk cleanup on front desk pc, removed 12 GB of old update files. C: at 40% free."),
        (
            "mailroom_scanner",
            "Mailroom scan PC fills up every day, so I set a scheduled task to purge "
            "scans older than a week once they're filed.",
        ),
        (
            "priya",
            "priya s. in accounts, C: drive red again. Emptied Downloads and temp, "
            "but the OST alone is 30 GB; can't fix without trimming her mailbox.",
        ),
        (
            "new_intern",
            "the intern's laptop was out of room because OneDrive was keeping "
            "everything offline. switched on files-on-demand, freed 60GB",
        ),
        (
            "dave_sales",
            "Cleared Dave from sales' old Zoom recordings off his desktop after he OK'd it, about 25 GB freed.",
        ),
        (
            "office_manager",
            "Office manager's laptop is tight on space. Agreed with Janet to archive "
            "the 2019-2021 folders; the first two years have been moved so far.",
        ),
        (
            "tom_laptop",
            "Storage Sense wouldn't run on Tom's laptop, blocked by policy. Did the "
            "cleanup by hand instead (hiberfil, Windows.old), 35 GB free now.",
        ),
        (
            "reception_printer",
            "Reception printer said 'storage full'. Its internal drive was holding "
            "hundreds of retained jobs, so I wiped them and cut retention to one "
            "day.",
        ),
    ],
    "restore_backup": [
        (
            "shared_drive",
            "Someone deleted the HR templates folder on the shared drive; pulled it "
            "back from last night's snapshot, all 48 files present.",
        ),
        (
            "frontdesk_pc",
            "Rather than rebuild the front-desk PC by hand after its drive died, I "
            "laid Sunday's system image onto a spare SSD. Up again by 10:30.",
        ),
        (
            "mailroom_scanner",
            "Tried to bring the mailroom scanner's profiles back from the config "
            "export, but the export was taken on older firmware and got rejected.",
        ),
        (
            "priya",
            "Priya overwrote the month-end spreadsheet. Got Tuesday's copy back "
            "from version history, much quicker than going to the nightly backup.",
        ),
        ("new_intern", "Recovered the new intern's accidentally deleted Desktop folder from the overnight backup."),
        (
            "dave_sales",
            "A folder of client emails vanished from Dave's mailbox. Queued a "
            "restore from the M365 backup, will check with him this afternoon.",
        ),
        (
            "office_manager",
            "Janet wanted last week's version of the rota file back, but there's no "
            "restore point before Friday; the backup job had been failing silently.",
        ),
        (
            "tom_laptop",
            "Tom's laptop came back from repair wiped. Restored his profile from "
            "endpoint backup. Learned that it skips Downloads by default.",
        ),
        (
            "reception_printer",
            "Loaded the saved address book back onto the reception printer after "
            "the reset cleared it. All scan-to-email contacts are there.",
        ),
        (
            "boardroom_display",
            "After its factory reset I re-applied the boardroom screen's saved "
            "config file instead of setting every option by hand. Five minutes.",
        ),
        (
            "warehouse_tablet",
            "Warehouse tablet reset itself. Attempted a restore from cloud backup "
            "but the latest was 3 weeks old and the app data never came back.",
        ),
        (
            "marketing_imac",
            "Time Machine brought back the deleted campaign folder on the Mac in "
            "marketing. Its backup disk is nearly full though, worth watching.",
        ),
    ],
}

# Per-line outcomes, same order as SENTENCES: s = success, f = failure, p = progress.
OUTCOMES = {
    "reset_password": "spfsssfsspss",
    "grant_access": "ssfsspfsssfs",
    "reseat_cable": "ssfsspfsssss",
    "replace_part": "spfsssfsssfs",
    "reinstall_app": "spfsssfsssss",
    "update_driver_firmware": "spfsssfsssfs",
    "free_disk_space": "spfsssfsspss",
    "restore_backup": "ssfsspfsssfs",
}
OUTCOME_NAMES = {"s": "success", "f": "failure", "p": "progress"}


def build_rows():
    rows = []
    for technique, pairs in SENTENCES.items():
        outcomes = OUTCOMES[technique]
        assert len(pairs) == 12 and len(outcomes) == 12, technique
        assert sorted(e for e, _ in pairs) == sorted(ENTITIES), technique
        for i, (entity, sentence) in enumerate(pairs):
            rows.append(
                {
                    "description": sentence,
                    "outcome": OUTCOME_NAMES[outcomes[i]],
                    "kind": KINDS[i % 4],
                    "technique": technique,
                    "family": FAMILY[technique],
                    "entity": entity,
                }
            )
    return rows


def check(rows):
    assert len(rows) == 96
    pairs = Counter((r["technique"], r["entity"]) for r in rows)
    assert len(pairs) == 96 and set(pairs.values()) == {1}
    assert len({r["description"] for r in rows}) == 96
    for r in rows:
        n = len(r["description"].split())
        assert 6 <= n <= 35, (n, r["description"])


def main():
    rows = build_rows()
    check(rows)
    random.Random(SEED).shuffle(rows)
    out = Path(__file__).resolve().parent / "log.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for n, r in enumerate(rows):
            fh.write(json.dumps({"id": f"desk{n:03d}", **r}, ensure_ascii=False))
            fh.write("\n")
    print(f"wrote {len(rows)} lines to {out}")
    print(Counter(r["outcome"] for r in rows))


if __name__ == "__main__":
    main()
