"""Build the crossed community-garden log (dream_crossed_garden/log.jsonl).

Every sentence below was written by hand, one at a time; nothing is generated
from a template. 8 techniques in 4 families of 2, each applied once to each of
12 entities, so 96 lines. Run from the repo root:

    .venv/bin/python tests/data/dream_crossed_garden/make_log.py
"""

import json
import random
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "log.jsonl"
SEED = 20261126

FAMILIES = {
    "plant_health": ("treat_pests", "remove_disease"),
    "soil_water": ("mulch", "adjust_watering"),
    "plant_shaping": ("prune", "tie_support"),
    "propagation": ("take_cuttings", "sow_transplant"),
}

ENTITIES = (
    "fig_by_shed",
    "marta_allotment",
    "bed_4",
    "polytunnel_tomatoes",
    "greenhouse_vine",
    "herb_spiral",
    "raspberry_row",
    "kofi_plot",
    "rose_arch",
    "school_bed",
    "plum_tree",
    "blackcurrants",
)

# technique -> 12 (entity, sentence, outcome, kind)
LOG = {
    "treat_pests": [
        (
            "fig_by_shed",
            "Found scale insects crusted along the lower branches of the shed fig. "
            "Scrubbed them off with a soft brush and soapy water, then wiped every stem down.",
            "success",
            "move",
        ),
        (
            "marta_allotment",
            "Slugs shredded the lettuces on Marta's allotment overnight. Sank beer traps "
            "between the rows and went round with a torch at dusk picking off the stragglers.",
            "success",
            "move",
        ),
        (
            "bed_4",
            "Rosemary beetles are back on the lavender in bed four, metallic stripes and all. "
            "Shook them onto a white tray and squashed them; I'll check after the weekend in case more hatch.",
            "progress",
            "move",
        ),
        (
            "polytunnel_tomatoes",
            "A cloud of whitefly lifts off the tunnel toms every time I brush past. Hung yellow "
            "sticky cards and ordered Encarsia wasps, since spraying under cover never lasts.",
            "progress",
            "strategy",
        ),
        (
            "greenhouse_vine",
            "Mealybug tucked into the flaking bark of the glasshouse grapevine. Dabbed each woolly "
            "cluster with a cotton bud dipped in meths until none were left.",
            "success",
            "move",
        ),
        (
            "herb_spiral",
            "Blackfly thick on the nasturtium tips trailing down the herb spiral. Rubbed most off "
            "between finger and thumb and left the ladybird larvae to mop up the rest.",
            "success",
            "insight",
        ),
        (
            "raspberry_row",
            "Maggots in nearly every berry picked from the rasps this week — raspberry beetle. "
            "Far too late to act now; the traps should have gone up at flowering.",
            "failure",
            "error",
        ),
        (
            "kofi_plot",
            "Greenfly colonising the undersides of Kofi's courgette leaves. Sprayed a weak soft-soap "
            "solution, but within three days they were back as thick as ever.",
            "failure",
            "error",
        ),
        (
            "rose_arch",
            "Aphids smothering the buds of the climbers over the entrance. Squirted them with "
            "diluted washing-up liquid and the buds look clean this morning.",
            "success",
            "move",
        ),
        (
            "school_bed",
            "Cabbage white caterpillars were stripping the kids' kale. The class and I picked off "
            "forty-odd, then draped fine netting over hoops so the butterflies can't lay again.",
            "success",
            "strategy",
        ),
        (
            "plum_tree",
            "Fixed a sticky grease band round the trunk of the Victoria plum so wingless winter "
            "moth females can't crawl up to lay their eggs.",
            "success",
            "strategy",
        ),
        (
            "blackcurrants",
            "Big bud mite: swollen round buds all over the currant bushes near the bench. Picked off "
            "every fat bud I could find; still waiting to see if I got them before the mites moved on.",
            "progress",
            "move",
        ),
    ],
    "remove_disease": [
        (
            "fig_by_shed",
            "Coral spot, those pink pustules, on a dead twig of the old fig. Took it out well below "
            "the infection and burned it instead of adding it to the heap.",
            "success",
            "move",
        ),
        (
            "marta_allotment",
            "Blight has reached Marta's potatoes: brown blotches with white fuzz underneath. Cut all "
            "the haulms to the ground and bagged them, hoping the tubers below are spared.",
            "progress",
            "move",
        ),
        (
            "bed_4",
            "Grey mould on the lettuces in the fourth raised bed after the wet week. Pulled every "
            "soft, furry plant and binned it; what's left looks clean for now.",
            "success",
            "move",
        ),
        (
            "polytunnel_tomatoes",
            "Blight got into the polytunnel tomatoes despite the cover. Stripped off the blotched "
            "leaves, but the fruit went brown within days and I had to pull the lot.",
            "failure",
            "error",
        ),
        (
            "greenhouse_vine",
            "Powdery mildew dusting the young bunches on the greenhouse vine. Snipped out the grey "
            "berries and opened every vent to dry the air; too early to say if it has stopped spreading.",
            "progress",
            "move",
        ),
        (
            "herb_spiral",
            "Mint rust — orange pustules all over the mint at the foot of the spiral. Dug out the "
            "whole infected clump and binned it; fresh mint will go in a pot somewhere else.",
            "success",
            "strategy",
        ),
        (
            "raspberry_row",
            "Spur blight, purple smudges round the buds, on about a dozen canes in the raspberry row. "
            "Removed each diseased cane at soil level and sent them off in the council green bin.",
            "success",
            "move",
        ),
        (
            "kofi_plot",
            "White powdery mildew coating the squash leaves in the plot behind the compost bays. "
            "Removed the worst leaves and sprayed milk diluted one to nine; it has slowed but not stopped.",
            "progress",
            "move",
        ),
        (
            "rose_arch",
            "Black spot on the entrance roses again. Raked up every fallen spotted leaf from under "
            "the arch and picked off the yellowing ones still hanging on.",
            "success",
            "move",
        ),
        (
            "school_bed",
            "The children's cauliflowers kept wilting on sunny afternoons; the roots came up swollen "
            "and knobbly with clubroot. Lifted and binned them all — no brassicas in that bed for years.",
            "failure",
            "insight",
        ),
        (
            "plum_tree",
            "Silver leaf confirmed on one limb of the plum at the orchard end, brown stain through "
            "the wood. Took the limb back to clean timber on a dry day to keep spores out.",
            "success",
            "move",
        ),
        (
            "blackcurrants",
            "Mildew has jumped from the gooseberries to the blackcurrants, shoot tips felted and grey. "
            "Snipped off the infected tips and bagged them; will inspect the new growth next week.",
            "progress",
            "move",
        ),
    ],
    "mulch": [
        (
            "fig_by_shed",
            "Spread a thick ring of leaf mould around the fig against the tool shed, keeping it "
            "a hand's width off the trunk.",
            "success",
            "move",
        ),
        (
            "marta_allotment",
            "Laid flattened cardboard and then a barrow of horse manure over the empty half of "
            "Marta's plot, to smother the couch grass through winter.",
            "success",
            "strategy",
        ),
        (
            "bed_4",
            "Tucked bark chips around the sage and lavender in bed 4 — they sulk in rich, wet "
            "stuff, so nothing like compost for them.",
            "success",
            "insight",
        ),
        (
            "polytunnel_tomatoes",
            "Covered the soil under the cordons in the polytunnel with grass clippings. Far too "
            "thick: it turned slimy and stank within the week, and I raked half of it off.",
            "failure",
            "error",
        ),
        (
            "greenhouse_vine",
            "The roots of the old Black Hamburg run outside the greenhouse wall, so I blanketed "
            "that strip of border with five centimetres of well-rotted compost.",
            "success",
            "move",
        ),
        (
            "herb_spiral",
            "Topped the herb spiral with a layer of pea gravel rather than anything organic; thyme "
            "and oregano hate a damp collar.",
            "success",
            "strategy",
        ),
        (
            "raspberry_row",
            "Barrowed shredded woodchip along the canes by the back fence and spread it deep to "
            "keep their shallow roots cool and the weeds down.",
            "success",
            "move",
        ),
        (
            "kofi_plot",
            "Put straw down under Kofi's squashes so the fruit isn't sitting on bare soil. Mice "
            "have moved into it, so still waiting to see if any pumpkins survive their nibbling.",
            "progress",
            "move",
        ),
        (
            "rose_arch",
            "Gave the climbing roses at the entrance a spring dressing of composted manure over "
            "damp ground, pulled back clear of the stems.",
            "success",
            "move",
        ),
        (
            "school_bed",
            "The class spread newspaper and leaf litter between their rows as a weed-suppressing "
            "layer. The wind had lifted most of it across the site by Monday.",
            "failure",
            "error",
        ),
        (
            "plum_tree",
            "Woodchip circle round the Victoria plum, a metre out from the trunk, to hold moisture "
            "and stop the grass competing with the roots.",
            "success",
            "move",
        ),
        (
            "blackcurrants",
            "Top-dressed each currant bush with a bucket of our own compost; blackcurrants are "
            "hungry feeders and the soil there is thin.",
            "success",
            "move",
        ),
    ],
    "adjust_watering": [
        (
            "fig_by_shed",
            "Eased off watering the shed fig; it was throwing out leaves instead of fruit. One can "
            "a week from now on, and we'll see whether the figs swell.",
            "progress",
            "strategy",
        ),
        (
            "marta_allotment",
            "Snaked a leaky hose between the beans on the allotment by the hedge and put it on a "
            "timer, so Marta no longer has to come down every evening.",
            "success",
            "strategy",
        ),
        (
            "bed_4",
            "Bed four was dust-dry ten centimetres down despite all the rain. Gave it a long, slow "
            "soak from the can until water started to pool on top.",
            "success",
            "move",
        ),
        (
            "polytunnel_tomatoes",
            "Blossom end rot on the tunnel tomatoes, from my erratic watering. Switched to the same "
            "amount per plant every morning at eight.",
            "progress",
            "insight",
        ),
        (
            "greenhouse_vine",
            "Soaked the outside border of the grapevine heavily now the grapes are swelling; I'll "
            "ease off once they start to colour so they don't split.",
            "success",
            "strategy",
        ),
        (
            "herb_spiral",
            "Watered the top of the spiral by hand; the rosemary up there dries out days before "
            "the parsley at the bottom ever needs a drop.",
            "success",
            "insight",
        ),
        (
            "raspberry_row",
            "The drip line along the raspberry row sprang a leak, flooding one end while the far "
            "canes got nothing. Patched it, but the berries at the dry end had already shrivelled.",
            "failure",
            "error",
        ),
        (
            "kofi_plot",
            "Sank upturned plastic bottles next to each of Kofi's squash plants so the water goes "
            "straight down to the roots instead of over the leaves.",
            "success",
            "strategy",
        ),
        (
            "rose_arch",
            "The roses over the arch were drooping by noon. Gave each one a full can at the roots "
            "in the evening and they had perked up by morning.",
            "success",
            "move",
        ),
        (
            "school_bed",
            "Showed the class how to water at the base of the plants, not over the leaves. Two of "
            "them still emptied their cans over the sunflowers' heads.",
            "progress",
            "insight",
        ),
        (
            "plum_tree",
            "The plum at the orchard end wilted in the heatwave. Gave it three deep drinks a week, "
            "but half the young fruit dropped anyway.",
            "failure",
            "error",
        ),
        (
            "blackcurrants",
            "Left the hose on a trickle at the foot of each blackcurrant for ten minutes while the "
            "berries were filling; the crop came out plump and glossy.",
            "success",
            "move",
        ),
    ],
    "prune": [
        (
            "fig_by_shed",
            "Thinned out the crossing branches on the fig by the shed and took the tallest leader "
            "down to the gutter line.",
            "success",
            "move",
        ),
        (
            "marta_allotment",
            "Took the secateurs to the overgrown gooseberry on Marta's patch, opening up the middle "
            "so she can pick without getting torn to bits.",
            "success",
            "move",
        ),
        (
            "bed_4",
            "Sheared the lavender in bed 4 after flowering, staying in the green growth and never "
            "cutting into the bare old wood.",
            "success",
            "move",
        ),
        (
            "polytunnel_tomatoes",
            "Pinched out the side shoots on the polytunnel tomatoes and removed the lower leaves "
            "below the first truss to let air through.",
            "success",
            "move",
        ),
        (
            "greenhouse_vine",
            "Spur-pruned the vine under glass, every lateral back to one or two buds. Left it too "
            "late in the winter and the cuts bled sap for over a week.",
            "failure",
            "error",
        ),
        (
            "herb_spiral",
            "Clipped the thyme and sage on the stone herb mound into tight cushions before they could go leggy.",
            "success",
            "move",
        ),
        (
            "raspberry_row",
            "Cut the fruited canes of the summer rasps down to the ground and kept only the six "
            "strongest new ones per stool.",
            "success",
            "move",
        ),
        (
            "kofi_plot",
            "Nipped the runaway tips off Kofi's trailing squashes so they stop crossing the path. "
            "Still waiting to see if the fruits already set fill out better.",
            "progress",
            "move",
        ),
        (
            "rose_arch",
            "Deadheaded the climbers on the entrance arch and shortened last year's flowered side "
            "shoots by about two thirds.",
            "success",
            "move",
        ),
        (
            "school_bed",
            "Deadheaded the marigolds and calendula in the children's patch with the class; by "
            "the end they were all snipping neatly just above a leaf.",
            "success",
            "insight",
        ),
        (
            "plum_tree",
            "Summer pruning on the Victoria plum, only in dry weather: took out the water shoots "
            "and lowered the branches that had grown beyond reach of the ladder.",
            "success",
            "strategy",
        ),
        (
            "blackcurrants",
            "Removed a third of the oldest, darkest stems from each blackcurrant right at the base, "
            "to keep young fruiting wood coming.",
            "success",
            "strategy",
        ),
    ],
    "tie_support": [
        (
            "fig_by_shed",
            "Re-tied the fan of the old fig to the wires on the shed wall with soft jute; two of "
            "the old ties had bitten into the bark.",
            "success",
            "move",
        ),
        (
            "marta_allotment",
            "Built a bean wigwam of hazel poles on Marta's allotment and lashed the top with "
            "string. Thursday's wind pulled the whole thing over.",
            "failure",
            "error",
        ),
        (
            "bed_4",
            "Pushed twiggy pea sticks in around the floppy sage in the fourth raised bed so it "
            "stops sprawling over the lettuces.",
            "success",
            "move",
        ),
        (
            "polytunnel_tomatoes",
            "Wound the tunnel toms clockwise round their hanging strings again; they put on another foot this week.",
            "success",
            "move",
        ),
        (
            "greenhouse_vine",
            "Tied the new rods of the greenhouse grapevine along the roof wires, loosely, in "
            "figure-of-eight loops so they can thicken.",
            "success",
            "move",
        ),
        (
            "herb_spiral",
            "The big rosemary at the top of the herb spiral was keeling over. Drove a short stake "
            "in behind it and tied it back; still waiting to see if it holds through the next gale.",
            "progress",
            "move",
        ),
        (
            "raspberry_row",
            "Tied this year's raspberry canes to the top wire along the back fence and bent the "
            "overlong tips into loops.",
            "success",
            "move",
        ),
        (
            "kofi_plot",
            "Rigged a slanted netting trellis on Kofi's beds so the smaller squashes can climb, "
            "and slung each fruit in an old-tights hammock.",
            "success",
            "strategy",
        ),
        (
            "rose_arch",
            "Fanned the new rose stems sideways across the arch and fixed them in almost "
            "horizontal, so the flowers come all along instead of only at the top.",
            "success",
            "insight",
        ),
        (
            "school_bed",
            "Half the kids' sunflowers snapped in the storm, so I gave the survivors bamboo canes "
            "and figure-of-eight ties; we'll see if they stay upright.",
            "progress",
            "move",
        ),
        (
            "plum_tree",
            "Propped the heaviest plum branches with forked poles; the crop is enormous this year. "
            "One limb split under the weight before I got there.",
            "failure",
            "error",
        ),
        (
            "blackcurrants",
            "Ran a loop of twine round the middle of the biggest currant bush so its laden branches "
            "stop lying on the grass.",
            "success",
            "move",
        ),
    ],
    "take_cuttings": [
        (
            "fig_by_shed",
            "Took pencil-thick hardwood cuttings, a foot long, from the fig by the shed and pushed "
            "them into a sand-filled trench. We'll know by spring.",
            "progress",
            "move",
        ),
        (
            "marta_allotment",
            "Marta wants more pelargoniums, so I took soft tip cuttings from hers and set them "
            "round the rim of a pot of gritty compost. All rooted.",
            "success",
            "move",
        ),
        (
            "bed_4",
            "Snipped heeled sage cuttings from bed four and put them in the propagator. Every "
            "single one rotted at the base.",
            "failure",
            "error",
        ),
        (
            "polytunnel_tomatoes",
            "Rooted the pinched-out side shoots of the polytunnel tomatoes in a jar of water; a "
            "week later they had roots and went into pots as free plants.",
            "success",
            "insight",
        ),
        (
            "greenhouse_vine",
            "Cut lengths of ripe wood with three buds each from the vine in the glasshouse, to root "
            "for the spring plant sale.",
            "progress",
            "move",
        ),
        (
            "herb_spiral",
            "Tore little heel slips of rosemary off the herb spiral and stuck them in a pot under a "
            "plastic bag; six of the eight have rooted.",
            "success",
            "move",
        ),
        (
            "raspberry_row",
            "Took root cuttings from the raspberry row — fat pieces of root laid flat in a seed "
            "tray. Nothing has come up after two months.",
            "failure",
            "error",
        ),
        (
            "kofi_plot",
            "Kofi's dahlias are too good not to multiply: took basal shoots off the tubers with a "
            "sliver of crown and rooted them in the heated bench.",
            "success",
            "move",
        ),
        (
            "rose_arch",
            "Stuck a row of hardwood cuttings from the entrance climbers in a slit trench behind the "
            "arch; it'll be a year before we know which have taken.",
            "progress",
            "move",
        ),
        (
            "school_bed",
            "The children cut mint stems from their own bed and stood them in jam jars on the "
            "classroom windowsill to watch the roots appear.",
            "success",
            "insight",
        ),
        (
            "plum_tree",
            "Tried softwood cuttings from the Victoria plum under a misting cover, against the "
            "books' advice. They wilted and blackened within a fortnight.",
            "failure",
            "error",
        ),
        (
            "blackcurrants",
            "Made foot-long sticks from this winter's blackcurrant wood and buried two thirds of each "
            "in a spare corner; every one is breaking bud.",
            "success",
            "move",
        ),
    ],
    "sow_transplant": [
        (
            "fig_by_shed",
            "Sowed nasturtiums in the dry strip under the shed fig; they're about the only thing "
            "that will grow in that dust.",
            "success",
            "move",
        ),
        (
            "marta_allotment",
            "Moved Marta's leeks from the seedbed into dibbed holes a ruler's width apart on her "
            "allotment, trimming the roots first.",
            "success",
            "move",
        ),
        (
            "bed_4",
            "Direct-sowed a row of cut-and-come-again lettuce between the lavenders in bed 4. The "
            "sparrows had every seed within a day.",
            "failure",
            "error",
        ),
        (
            "polytunnel_tomatoes",
            "Planted the tomato seedlings out into the polytunnel border, deeper than they sat in "
            "their pots so the buried stems put out roots.",
            "success",
            "move",
        ),
        (
            "greenhouse_vine",
            "Pricked out basil seedlings into the border beneath the greenhouse vine, where the "
            "dappled shade suits them.",
            "success",
            "move",
        ),
        (
            "herb_spiral",
            "Sowed parsley in the damp bottom curl of the herb spiral. It's notoriously slow to come "
            "up, so I'm still waiting after three weeks.",
            "progress",
            "move",
        ),
        (
            "raspberry_row",
            "Dug up a dozen rooted suckers straying from the rasps and replanted them in the gap "
            "left by the dead canes.",
            "success",
            "move",
        ),
        (
            "kofi_plot",
            "Set out Kofi's hardened-off squash seedlings on their compost mounds. A frost the very "
            "next night killed three of them.",
            "failure",
            "error",
        ),
        (
            "rose_arch",
            "Planted a clematis at the foot of the rose arch to scramble up through the roses and "
            "flower after they finish.",
            "success",
            "strategy",
        ),
        (
            "school_bed",
            "Each child in the class sowed one broad bean in the school bed and labelled it with "
            "their name; the first shoots are just showing.",
            "progress",
            "move",
        ),
        (
            "plum_tree",
            "Set a ring of comfrey and chives under the plum at the orchard end as a small guild "
            "to feed the tree and keep pests guessing.",
            "success",
            "strategy",
        ),
        (
            "blackcurrants",
            "Put in two bare-root blackcurrant bushes to extend the row, setting them a little "
            "deeper than they grew in the nursery.",
            "success",
            "move",
        ),
    ],
}

OUTCOMES = {"success", "failure", "progress"}
KINDS = {"strategy", "move", "error", "insight"}


def check() -> None:
    assert len(FAMILIES) == 4, "need 4 families"
    techs = [t for pair in FAMILIES.values() for t in pair]
    assert all(len(p) == 2 for p in FAMILIES.values()), "each family has 2 techniques"
    assert len(techs) == 8 and len(set(techs)) == 8, "need 8 distinct techniques"
    assert set(LOG) == set(techs), "LOG keys must match the family table"
    assert len(ENTITIES) == 12 and len(set(ENTITIES)) == 12
    descs = []
    for tech, rows in LOG.items():
        assert len(rows) == 12, f"{tech}: {len(rows)} rows"
        ents = [r[0] for r in rows]
        assert sorted(ents) == sorted(ENTITIES), f"{tech}: entities {Counter(ents)}"
        for ent, desc, outcome, kind in rows:
            assert outcome in OUTCOMES, (tech, ent, outcome)
            assert kind in KINDS, (tech, ent, kind)
            n = len(desc.split())
            assert 10 <= n <= 45, f"{tech}/{ent}: {n} words"
            descs.append(desc)
    assert len(descs) == 96 and len(set(descs)) == 96, "96 distinct descriptions"


def build() -> list[dict]:
    family_of = {t: f for f, pair in FAMILIES.items() for t in pair}
    rows = [
        {
            "description": desc,
            "outcome": outcome,
            "kind": kind,
            "technique": tech,
            "family": family_of[tech],
            "entity": ent,
        }
        for tech in LOG
        for ent, desc, outcome, kind in LOG[tech]
    ]
    random.Random(SEED).shuffle(rows)
    return [{"id": f"gard{i:03d}", **r} for i, r in enumerate(rows)]


def main() -> None:
    check()
    rows = build()
    with OUT.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} lines to {OUT}")
    print("outcomes:", dict(sorted(Counter(r["outcome"] for r in rows).items())))
    print("kinds:", dict(sorted(Counter(r["kind"] for r in rows).items())))


if __name__ == "__main__":
    main()
