; a tile falls because the one below it was pushed away
; optimal 3 moves (simulator BFS)
; Board:
;   ######
;   #a...#
;   #b...#
;   #a##.#
;   ####b#
;   ######
(define (problem puzznic-pushed-away)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 - cell
    r3-c2 r3-c3 r3-c4 r3-c5 - cell
    r4-c2 r4-c5 - cell
    r5-c5 - cell
    tile-a-1 tile-b-1 tile-a-2 tile-b-2 - pair-tile
  )
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (below r2-c2 r3-c2)
    (right-of r2-c3 r2-c4)
    (below r2-c3 r3-c3)
    (right-of r2-c4 r2-c5)
    (below r2-c4 r3-c4)
    (below r2-c5 r3-c5)
    (right-of r3-c2 r3-c3)
    (below r3-c2 r4-c2)
    (right-of r3-c3 r3-c4)
    (right-of r3-c4 r3-c5)
    (below r3-c5 r4-c5)
    (below r4-c5 r5-c5)
    (adjacent r2-c2 r3-c2)
    (adjacent r2-c2 r2-c3)
    (adjacent r2-c3 r3-c3)
    (adjacent r2-c3 r2-c2)
    (adjacent r2-c3 r2-c4)
    (adjacent r2-c4 r3-c4)
    (adjacent r2-c4 r2-c3)
    (adjacent r2-c4 r2-c5)
    (adjacent r2-c5 r3-c5)
    (adjacent r2-c5 r2-c4)
    (adjacent r3-c2 r2-c2)
    (adjacent r3-c2 r4-c2)
    (adjacent r3-c2 r3-c3)
    (adjacent r3-c3 r2-c3)
    (adjacent r3-c3 r3-c2)
    (adjacent r3-c3 r3-c4)
    (adjacent r3-c4 r2-c4)
    (adjacent r3-c4 r3-c3)
    (adjacent r3-c4 r3-c5)
    (adjacent r3-c5 r2-c5)
    (adjacent r3-c5 r4-c5)
    (adjacent r3-c5 r3-c4)
    (adjacent r4-c2 r3-c2)
    (adjacent r4-c5 r3-c5)
    (adjacent r4-c5 r5-c5)
    (adjacent r5-c5 r4-c5)
    (same-kind tile-a-1 tile-a-2)
    (same-kind tile-b-1 tile-b-2)
    (same-kind tile-a-2 tile-a-1)
    (same-kind tile-b-2 tile-b-1)
    (at tile-a-1 r2-c2)
    (at tile-b-1 r3-c2)
    (at tile-a-2 r4-c2)
    (at tile-b-2 r5-c5)
    (empty r2-c3)
    (empty r2-c4)
    (empty r2-c5)
    (empty r3-c3)
    (empty r3-c4)
    (empty r3-c5)
    (empty r4-c5)
  )
  (:goal (and
    (gone tile-a-1) (gone tile-b-1) (gone tile-a-2) (gone tile-b-2)))
  (:metric minimize (total-cost)))
