; vertical pair: a tile pushed off a ledge lands on its partner
; optimal 1 moves (simulator BFS)
; Board:
;   ####
;   #a.#
;   ##.#
;   ##a#
;   ####
(define (problem puzznic-vertical-pair)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 - cell
    r3-c3 - cell
    r4-c3 - cell
    tile-a-1 tile-a-2 - pair-tile
  )
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (below r2-c3 r3-c3)
    (below r3-c3 r4-c3)
    (adjacent r2-c2 r2-c3)
    (adjacent r2-c3 r3-c3)
    (adjacent r2-c3 r2-c2)
    (adjacent r3-c3 r2-c3)
    (adjacent r3-c3 r4-c3)
    (adjacent r4-c3 r3-c3)
    (same-kind tile-a-1 tile-a-2)
    (same-kind tile-a-2 tile-a-1)
    (at tile-a-1 r2-c2)
    (at tile-a-2 r4-c3)
    (empty r2-c3)
    (empty r3-c3)
  )
  (:goal (and
    (gone tile-a-1) (gone tile-a-2)))
  (:metric minimize (total-cost)))
