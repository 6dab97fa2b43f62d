"""Assemble log.jsonl for the dream_crossed_workshop set.

Every sentence below was written by hand, one at a time. Nothing here fills
a sentence template: the script only attaches labels, shuffles the order with
a fixed seed, and writes one JSON object per line.

Run:  python make_log.py   (writes log.jsonl next to this file)
"""

import json
import random
from pathlib import Path

PREFIX = "shop"
SEED = 20240612

ENTITIES = [
    "blue_commuter_bike",
    "toaster",
    "band_saw",
    "kids_bmx",
    "sewing_machine",
    "cargo_trike",
    "desk_fan",
    "vacuum_cleaner",
    "stand_mixer",
    "tandem",
    "push_mower",
    "wheelchair",
]

FAMILY = {
    "degrease": "clean_and_lube",
    "lubricate": "clean_and_lube",
    "retighten": "fit_and_alignment",
    "realign": "fit_and_alignment",
    "remove_rust": "surface_and_corrosion",
    "repaint": "surface_and_corrosion",
    "donor_part": "replacement_parts",
    "fabricate_part": "replacement_parts",
}

# technique -> 12 (entity, sentence) pairs
LINES = {
    "degrease": [
        (
            "blue_commuter_bike",
            "Blue commuter bike's drivetrain was black sludge — citrus degreaser, stiff brush, hot water rinse, dried off. Clean as new.",
        ),
        (
            "toaster",
            "Scrubbed years of baked-on grease out of the toaster with degreaser and an old toothbrush, but the lever still sticks, so dirt wasn't the problem.",
        ),
        (
            "band_saw",
            "scraped the pitch and caked sawdust off the band saw wheels, then wiped everything down with mineral spirits till the rags came away clean",
        ),
        (
            "kids_bmx",
            "Kid's BMX came in caked in mud and old grease. The whole thing went through the parts washer, solvent and a brush, looks almost new.",
        ),
        (
            "sewing_machine",
            "Opened up the Singer and cleaned out decades of gummy, hardened oil and lint with naphtha and cotton swabs.",
        ),
        ("cargo_trike", "degreased the cargo trike's chain and hub, about an hour of solvent and rags"),
        (
            "desk_fan",
            "The desk fan was furred with greasy kitchen dust. Took it apart and washed every piece in hot soapy water with a splash of degreaser.",
        ),
        (
            "vacuum_cleaner",
            "washed the built-up gunk out of the vacuum with degreaser; grime's gone and so is the noise",
        ),
        (
            "stand_mixer",
            "Stand mixer was full of old tar-like grease. Scooped it out and solvent-washed every part till the grime was gone.",
        ),
        ("tandem", "Degreasing the tandem; front half scrubbed clean, rear chain still soaking in the solvent tub."),
        (
            "push_mower",
            "Spent 40 min stripping oily grass gunk off the push mower with degreaser and a scraper — it still binds, so that wasn't it.",
        ),
        (
            "wheelchair",
            "Wheelchair axles were gummed up with grime and hair; hosed them with brake cleaner and wiped them dry, rolls smooth again.",
        ),
    ],
    "lubricate": [
        ("blue_commuter_bike", "oiled the blue commuter's chain, squeak gone"),
        (
            "toaster",
            "Toaster's slider was dragging; a drop of food-safe lubricant on the rod and it glides down like it should.",
        ),
        ("band_saw", "Greased the band saw's bearings and the tension screw threads. Everything turns easily again."),
        ("kids_bmx", "the BMX's bearings felt crunchy and dry so we packed them with fresh grease"),
        (
            "sewing_machine",
            "Put a drop of oil in every oiling point on the Singer, per the manual. Still very stiff to turn; it's something else.",
        ),
        ("cargo_trike", "Lubing every pivot on the cargo trike — left side oiled, right side tomorrow."),
        (
            "desk_fan",
            "desk fan: few drops of light machine oil on the motor bearing. Spun nicely for ten minutes, then slowed to a crawl again.",
        ),
        ("vacuum_cleaner", "A squirt of silicone lube on the vacuum's wheel axles and pedal hinge fixed the grinding."),
        ("stand_mixer", "Repacked the stand mixer's gears with fresh food-grade grease. Quieter on every speed."),
        ("tandem", "Tandem creaked on every pedal stroke; greased the pedal threads and bearings and now it's silent."),
        ("push_mower", "push mower bearings got a squirt of 3-in-1 oil each side. pushes way easier now"),
        (
            "wheelchair",
            "The donated wheelchair's swivels were dry and jerky. Sprayed PTFE lube in and worked it around, smooth now.",
        ),
    ],
    "retighten": [
        (
            "blue_commuter_bike",
            "Rattle on the blue commuter bike was bolts backing out. Snugged every one up with a dab of threadlocker.",
        ),
        ("toaster", "toaster wobbled; tightened two loose screws, sorted"),
        (
            "band_saw",
            "Band saw table was rocking because its bolts had loosened. Torqued them down with a spanner, rechecked, solid.",
        ),
        (
            "kids_bmx",
            "Going round the kid's BMX with the torque wrench checking every bolt — front half done, rest after lunch.",
        ),
        (
            "sewing_machine",
            "The Singer's motor mount screws had worked half out, which explains the vibration. Cinched them all tight.",
        ),
        ("cargo_trike", "cargo trike box was shifting. re-torqued all eight mounting bolts to spec."),
        ("desk_fan", "Desk fan head kept drooping. Loose knob — tightened it up with a washer behind, holds now."),
        (
            "vacuum_cleaner",
            "Tightened every screw I could find on the vacuum's handle; it still flexes and clicks. Probably a cracked screw post.",
        ),
        (
            "stand_mixer",
            "Mixer bowl clamp had worked loose and chattered at speed; two turns on the clamp screws sorted it.",
        ),
        (
            "tandem",
            "Went over every bolt on the tandem with an allen key — half of them were loose. Tight now, test ride fine.",
        ),
        (
            "push_mower",
            "push mower handle was flopping around, a nut had gone missing. new nyloc nut, cranked down, done.",
        ),
        (
            "wheelchair",
            "The wheelchair footrest keeps swinging loose. Tightened the pivot bolt twice today and it worked free again within an hour.",
        ),
    ],
    "realign": [
        (
            "blue_commuter_bike",
            "Tried to true the blue commuter's wobbly rear wheel, but a seized spoke nipple means it won't come straight. Needs rebuilding.",
        ),
        ("toaster", "Toaster tray was bent and didn't sit flush; straightened it with pliers so it lines up."),
        (
            "band_saw",
            "Realigning the band saw: upper wheel shimmed into line, lower wheel still needs checking with a straightedge.",
        ),
        (
            "kids_bmx",
            "BMX handlebars got twisted in a crash. Clamped the front wheel and bent them back until they were square.",
        ),
        (
            "sewing_machine",
            "Needle on the Singer was hitting off-centre; nudged the needle bar over until it lined up dead centre again.",
        ),
        (
            "cargo_trike",
            "cargo trike pulled hard to one side — front wheels pointing different ways. adjusted them parallel, tracks straight now.",
        ),
        (
            "desk_fan",
            "Desk fan guard is dented and the blade catches. Bending the wires back into shape bit by bit; half done.",
        ),
        (
            "vacuum_cleaner",
            "Vacuum brush was sitting crooked and rubbing. Re-seated it square so it runs straight in its brackets.",
        ),
        (
            "stand_mixer",
            "Adjusted the stand mixer with its set screw, but the head itself is out of line, so it still scrapes the bowl.",
        ),
        ("tandem", "trued up the tandem's bent hanger, shifts perfectly"),
        (
            "push_mower",
            "Push mower blades weren't meeting evenly. Adjusted both sides until the gap was even across the whole width.",
        ),
        (
            "wheelchair",
            "Wheelchair pulled left. Found a bent fork, straightened it in the vise and checked it tracks true.",
        ),
    ],
    "remove_rust": [
        (
            "blue_commuter_bike",
            "Surface rust all over the blue commuter's bolts; scrubbed it off with steel wool and a bit of oil.",
        ),
        ("toaster", "toaster's chrome had little rust spots; polished them out with scrunched foil and water"),
        (
            "band_saw",
            "Band saw table was orange with rust. Sanded it back to bare iron with WD-40 and fine paper, then waxed.",
        ),
        (
            "kids_bmx",
            "Soaked the BMX's rusted clamp in vinegar overnight. Rust came off but the bolt underneath is pitted and snapped.",
        ),
        ("sewing_machine", "Rusty bits of the sewing machine sat in citric acid for an hour, then got buffed bright."),
        (
            "cargo_trike",
            "cargo trike chain had rusted solid. wire-wheeled it and soaked it in rust remover, still seized, binning it.",
        ),
        ("desk_fan", "Desk fan guard had rusty patches; wire-brushed them back to bright metal."),
        (
            "vacuum_cleaner",
            "Removed the corrosion from the vacuum's metal tube with a rust eraser so it clicks together again.",
        ),
        ("stand_mixer", "stand mixer rust: brass brush + naval jelly, done"),
        ("tandem", "Electrolysis bath overnight for the tandem's rusty old steel parts; came out clean grey metal."),
        (
            "push_mower",
            "Push mower is crusted with rust. Halfway through wire-brushing it off; blades done, frame next.",
        ),
        ("wheelchair", "De-rusted the wheelchair's levers and bolts with a wire brush, then wiped on a coat of oil."),
    ],
    "repaint": [
        ("blue_commuter_bike", "Touched up the chips on the blue commuter bike with matching enamel, two thin coats."),
        ("toaster", "the toaster's base looked awful, gave it a coat of heat-resistant black spray paint"),
        ("band_saw", "Repainted the band saw covers in safety yellow so people notice when they're left open."),
        (
            "kids_bmx",
            "Kid wanted the BMX green. Sanded, primed, three coats of rattle can green and a clear coat on top.",
        ),
        ("sewing_machine", "Refinishing the Singer: black lacquer on, letting it cure before anything goes back."),
        ("cargo_trike", "Cargo trike got a fresh coat of outdoor paint after sanding the scuffs out."),
        ("desk_fan", "Desk fan resprayed in cream enamel, looks like a 1950s original now."),
        ("vacuum_cleaner", "spray-painted the scuffed vacuum, it looked terrible, now it's a nice matte grey"),
        (
            "stand_mixer",
            "Chipped spots on the stand mixer were dabbed with appliance touch-up paint; you can barely tell.",
        ),
        (
            "tandem",
            "Painted the tandem's frame but the paint wrinkled everywhere — didn't wait long enough between coats. Needs sanding back and redoing.",
        ),
        (
            "push_mower",
            "Primed and painted the push mower last week and it's already flaking off. Must have left grease underneath.",
        ),
        ("wheelchair", "Wheelchair frame sanded and primed; colour coat goes on tomorrow once it's dry."),
    ],
    "donor_part": [
        (
            "blue_commuter_bike",
            "Blue commuter bike's gear changer was toast. Pulled a working one off a donor bike in the scrap pile and fitted it.",
        ),
        (
            "toaster",
            "Took the timer out of a dead toaster of the same model and swapped it into this one. Works again.",
        ),
        (
            "band_saw",
            "Scavenged a wheel from the scrapped band saw out back, but the bore's a different size. Doesn't fit.",
        ),
        ("kids_bmx", "kid's bmx: cracked pedal, took one off a parts bike"),
        (
            "sewing_machine",
            "The Singer's winder was broken. We cannibalised the one from the spare Singer carcass on the shelf.",
        ),
        (
            "cargo_trike",
            "cargo trike got a hub from the donated trike we've been stripping for parts. fits, runs smooth",
        ),
        (
            "desk_fan",
            "desk fan's gearbox was stripped — harvested an identical one from a broken fan in the e-waste bin.",
        ),
        (
            "vacuum_cleaner",
            "Salvaged a motor from a second vacuum in the donor pile. Wrong variant, hums but won't spin.",
        ),
        (
            "stand_mixer",
            "Stripping a dead stand mixer for its control board to put in ours. Board's out, not installed yet.",
        ),
        (
            "tandem",
            "Swapped a brake off a parts bike onto the tandem — too short for the big tyres, back to the drawing board.",
        ),
        (
            "push_mower",
            "Push mower's broken wheel replaced with one pulled off another mower someone dumped at the door.",
        ),
        ("wheelchair", "Wheelchair's missing armrest: robbed one from the beat-up chair in the back, same make."),
    ],
    "fabricate_part": [
        (
            "blue_commuter_bike",
            "3D-printed a replacement clip for the blue commuter; the PLA snapped as soon as I tightened it. Try PETG next.",
        ),
        ("toaster", "Made a new knob for the toaster out of a scrap of hardwood, drilled and shaped to press-fit."),
        ("band_saw", "Band saw was missing its insert, so I turned one from a phenolic disc on the lathe."),
        (
            "kids_bmx",
            "No chain guard to be had for the BMX so we cut one from aluminium sheet, bent it to shape and drilled mounting holes.",
        ),
        ("sewing_machine", "The Singer's spool pin had snapped off; turned a new one from brass rod."),
        ("cargo_trike", "Fabricated a bracket for the cargo trike from a bit of flat steel bar. Bolted on, solid."),
        (
            "desk_fan",
            "Designed and printed a new hub for the desk fan but it came out unbalanced, fan wobbled badly. Back to CAD.",
        ),
        (
            "vacuum_cleaner",
            "Modelling a replacement latch clip for the vacuum. First print came off the printer, tolerances need tweaking.",
        ),
        ("stand_mixer", "stand mixer's latch tab broke, printed a new tab and glued it in"),
        (
            "tandem",
            "Nobody makes the tandem's odd kickstand plate anymore, so I cut and filed one from 4mm steel. Works a treat.",
        ),
        ("push_mower", "push mower's catcher hook was gone — bent a new one out of coat hanger wire"),
        (
            "wheelchair",
            "Machined a spacer for the wheelchair from nylon bar. Came out 1mm too short; wheel still wobbles.",
        ),
    ],
}

# (technique, entity) -> outcome, for lines that are not plain successes.
# Chosen per line to match what the sentence says, spread over techniques.
OUTCOME = {
    ("degrease", "toaster"): "failure",
    ("degrease", "push_mower"): "failure",
    ("degrease", "tandem"): "progress",
    ("lubricate", "sewing_machine"): "failure",
    ("lubricate", "desk_fan"): "failure",
    ("lubricate", "cargo_trike"): "progress",
    ("retighten", "vacuum_cleaner"): "failure",
    ("retighten", "wheelchair"): "failure",
    ("retighten", "kids_bmx"): "progress",
    ("realign", "blue_commuter_bike"): "failure",
    ("realign", "stand_mixer"): "failure",
    ("realign", "band_saw"): "progress",
    ("realign", "desk_fan"): "progress",
    ("remove_rust", "kids_bmx"): "failure",
    ("remove_rust", "cargo_trike"): "failure",
    ("remove_rust", "push_mower"): "progress",
    ("repaint", "tandem"): "failure",
    ("repaint", "push_mower"): "failure",
    ("repaint", "sewing_machine"): "progress",
    ("repaint", "wheelchair"): "progress",
    ("donor_part", "band_saw"): "failure",
    ("donor_part", "vacuum_cleaner"): "failure",
    ("donor_part", "tandem"): "failure",
    ("donor_part", "stand_mixer"): "progress",
    ("fabricate_part", "blue_commuter_bike"): "failure",
    ("fabricate_part", "desk_fan"): "failure",
    ("fabricate_part", "wheelchair"): "failure",
    ("fabricate_part", "vacuum_cleaner"): "progress",
}

KINDS = ["move", "strategy", "error", "insight"]


def build():
    rows = []
    for technique, pairs in LINES.items():
        assert sorted(e for e, _ in pairs) == sorted(ENTITIES), technique
        for entity, sentence in pairs:
            rows.append((technique, entity, sentence))
    random.Random(SEED).shuffle(rows)
    # kind: cycles over each technique's lines in file order, starting at a
    # different point per technique, so every technique gets 3 of each kind
    # and kind says nothing about the technique.
    seen = {}
    start = {t: i % len(KINDS) for i, t in enumerate(LINES)}
    out = []
    for i, (technique, entity, sentence) in enumerate(rows):
        k = seen.get(technique, 0)
        seen[technique] = k + 1
        out.append(
            {
                "id": f"{PREFIX}{i:03d}",
                "description": sentence,
                "outcome": OUTCOME.get((technique, entity), "success"),
                "kind": KINDS[(start[technique] + k) % len(KINDS)],
                "technique": technique,
                "family": FAMILY[technique],
                "entity": entity,
            }
        )
    return out


def main():
    path = Path(__file__).with_name("log.jsonl")
    with path.open("w", encoding="utf-8") as fh:
        for row in build():
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
