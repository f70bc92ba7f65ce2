; Real-time rule: catching a falling tile. Three tiles of one kind: pushed
; one at a time into the left shaft, the second lands on the first and
; the pair vanishes, stranding the third, so by the turn-based rules the
; level is unsolvable. By the real-time rules the middle tile is pushed
; into the shaft while the top one falls through it: the two fall as a
; stack and land on the bottom tile together, three in a column.
; unsolvable by the turn-based rules (simulator BFS)
; real-time rules: optimal 2 moves
; Board:
;   ######
;   #.a..#
;   #.#..#
;   #.a..#
;   #.##.#
;   #a#..#
;   ######
(define (problem puzznic-catch)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 r2-c5 - cell
    r3-c2 r3-c4 r3-c5 - cell
    r4-c2 r4-c3 r4-c4 r4-c5 - cell
    r5-c2 r5-c5 - cell
    r6-c2 r6-c4 r6-c5 - cell
    tile-a-1 tile-a-2 tile-a-3 - triple-tile
  )
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (below r2-c2 r3-c2)
    (right-of r2-c3 r2-c4)
    (right-of r2-c4 r2-c5)
    (below r2-c4 r3-c4)
    (below r2-c5 r3-c5)
    (below r3-c2 r4-c2)
    (right-of r3-c4 r3-c5)
    (below r3-c4 r4-c4)
    (below r3-c5 r4-c5)
    (right-of r4-c2 r4-c3)
    (below r4-c2 r5-c2)
    (right-of r4-c3 r4-c4)
    (right-of r4-c4 r4-c5)
    (below r4-c5 r5-c5)
    (below r5-c2 r6-c2)
    (below r5-c5 r6-c5)
    (right-of r6-c4 r6-c5)
    (adjacent r2-c2 r3-c2)
    (adjacent r2-c2 r2-c3)
    (adjacent r2-c3 r2-c2)
    (adjacent r2-c3 r2-c4)
    (adjacent r2-c4 r3-c4)
    (adjacent r2-c4 r2-c3)
    (adjacent r2-c4 r2-c5)
    (adjacent r2-c5 r3-c5)
    (adjacent r2-c5 r2-c4)
    (adjacent r3-c2 r2-c2)
    (adjacent r3-c2 r4-c2)
    (adjacent r3-c4 r2-c4)
    (adjacent r3-c4 r4-c4)
    (adjacent r3-c4 r3-c5)
    (adjacent r3-c5 r2-c5)
    (adjacent r3-c5 r4-c5)
    (adjacent r3-c5 r3-c4)
    (adjacent r4-c2 r3-c2)
    (adjacent r4-c2 r5-c2)
    (adjacent r4-c2 r4-c3)
    (adjacent r4-c3 r4-c2)
    (adjacent r4-c3 r4-c4)
    (adjacent r4-c4 r3-c4)
    (adjacent r4-c4 r4-c3)
    (adjacent r4-c4 r4-c5)
    (adjacent r4-c5 r3-c5)
    (adjacent r4-c5 r5-c5)
    (adjacent r4-c5 r4-c4)
    (adjacent r5-c2 r4-c2)
    (adjacent r5-c2 r6-c2)
    (adjacent r5-c5 r4-c5)
    (adjacent r5-c5 r6-c5)
    (adjacent r6-c2 r5-c2)
    (adjacent r6-c4 r6-c5)
    (adjacent r6-c5 r5-c5)
    (adjacent r6-c5 r6-c4)
    (same-kind tile-a-1 tile-a-2)
    (same-kind tile-a-1 tile-a-3)
    (same-kind tile-a-2 tile-a-1)
    (same-kind tile-a-2 tile-a-3)
    (same-kind tile-a-3 tile-a-1)
    (same-kind tile-a-3 tile-a-2)
    (at tile-a-1 r2-c3)
    (at tile-a-2 r4-c3)
    (at tile-a-3 r6-c2)
    (empty r2-c2)
    (empty r2-c4)
    (empty r2-c5)
    (empty r3-c2)
    (empty r3-c4)
    (empty r3-c5)
    (empty r4-c2)
    (empty r4-c4)
    (empty r4-c5)
    (empty r5-c2)
    (empty r5-c5)
    (empty r6-c4)
    (empty r6-c5)
  )
  (:goal (and
    (gone tile-a-1) (gone tile-a-2) (gone tile-a-3)))
  (:metric minimize (total-cost)))
