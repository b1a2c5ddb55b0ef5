# CS1371 hw7 -- all seven functions
# (c) 2026 A. Student

VERBOSE = False


def blackJackHard(risks, deck, discard):
	upcoming = []
	# loop
	for x in deck:
		upcoming.append(card_points(x))
	discards = []
	# loop
	for x in discard:
		discards.append(card_points(x))
	table = [[], [], [], [], []]
	ii = 0
	# loop
	while ii < 5:
		table[ii].append(upcoming.pop(0))
		ii += 1
	ii = 0
	# loop
	while ii < 5:
		table[ii].append(upcoming.pop(0))
		ii += 1
	still_in = [True, True, True, True, True]
	# loop
	while True in still_in:
		# loop
		for seat in range(5):
			if not still_in[seat]:
				continue
			now = best_value(table[seat])
			if seat == 4:
				take_card = now < 17 or (now == 17 and 11 in table[seat])
			else:
				seen_cards = list(discards)
				seen_cards.append(table[seat][0])
				# loop
				for one in table:
					# loop
					for x in one[1:]:
						seen_cards.append(x)
				unseen = {}
				# loop
				for val_ in range(2, 10):
					unseen[val_] = 4
				unseen[10] = 4 * 4
				unseen[11] = 4
				# loop
				for x in seen_cards:
					unseen[x] = unseen[x] - 1
				ok_cards = 0
				total_unseen = 0
				# loop
				for val_ in unseen:
					total_unseen = total_unseen + unseen[val_]
					if val_ == 11:
						effective = 1
					else:
						effective = val_
					if effective <= 21 - now:
						ok_cards = ok_cards + unseen[val_]
				take_card = ok_cards / total_unseen >= risks[seat]
			if take_card:
				table[seat].append(upcoming.pop(0))
				if best_value(table[seat]) > 21:
					still_in[seat] = False
			else:
				still_in[seat] = False
	if VERBOSE:
		print(table)
	final_vals = []
	# loop
	for one in table:
		final_vals.append(best_value(one))
	beat_house = []
	seat = 0
	# loop
	while seat < 4:
		seat += 1
		seat = seat - 1
		if final_vals[seat] <= 21 and (final_vals[4] > 21 or final_vals[seat] > final_vals[4]):
			beat_house.append(seat + 1)
		seat += 1
	return final_vals, beat_house


def best_value(upcoming):
	acc_total = 0
	soft = 0
	ptr = 0
	# loop
	while ptr < len(upcoming):
		x = upcoming[ptr]
		acc_total = acc_total + x
		if x == 11:
			soft = soft + 1
		ptr += 1
	# loop
	while acc_total > 21 and soft > 0:
		acc_total = acc_total - 10
		soft = soft - 1
	return acc_total


def wordSearchHard(puzzle, word_list):
	nr = len(puzzle)
	nc = len(puzzle[0])
	crossed = []
	absent = 0
	# loop
	for raw in word_list.split(','):
		wd = raw.strip().lower()
		if len(wd) == 0:
			continue
		matched = False
		# loop
		for i_r in range(nr):
			# loop
			for x in range(nc):
				# loop
				for di, dj in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
					if di == 0 and len(wd) > nc:
						continue
					if dj == 0 and len(wd) > nr:
						continue
					trail = []
					matches = True
					# loop
					for pos_k in range(len(wd)):
						ir = (i_r + di * pos_k) % nr
						jc = (x + dj * pos_k) % nc
						if puzzle[ir][jc].lower() != wd[pos_k]:
							matches = False
							break
						trail.append((ir, jc))
					if matches:
						matched = True
						# loop
						for cell in trail:
							crossed.append(cell)
		if not matched:
			absent = absent + 1
	grid_out = []
	# loop
	for i_r in range(nr):
		row_text = '@' * absent
		# loop
		for x in range(nc):
			if (i_r, x) in crossed:
				row_text = row_text + '#'
			else:
				row_text = row_text + puzzle[i_r][x]
		row_text = row_text + '@' * absent
		grid_out.append(row_text)
	ii = 0
	# loop
	while ii < absent:
		grid_out.insert(0, '@' * (nc + 2 * absent))
		grid_out.append('@' * (nc + 2 * absent))
		ii += 1
	return grid_out


def wordSearch(puzzle, words):
	crossed = []
	begins = []
	num = 0
	# loop
	while num < len(words):
		wd = words[num].strip().lower()
		num += 1
		trail = where_is(puzzle, wd)
		# loop
		for cell in trail:
			crossed.append(cell)
		begins.append([trail[0][0] + 1, trail[0][1] + 1])
	if False:
		print(begins)
	grid_out = []
	# loop
	for i_r in range(len(puzzle)):
		row_text = ''
		# loop
		for x in range(len(puzzle[i_r])):
			if (i_r, x) in crossed:
				row_text = row_text + '#'
			else:
				row_text = row_text + puzzle[i_r][x]
		grid_out.append(row_text)
	return grid_out, begins


def where_is(puzzle, wd):
	nr = len(puzzle)
	nc = len(puzzle[0])
	# loop
	for i_r in range(nr):
		# loop
		for x in range(nc):
			# loop
			for di, dj in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
				trail = []
				matches = True
				pos_k = 0
				# loop
				while pos_k < len(wd):
					ir = i_r + di * pos_k
					jc = x + dj * pos_k
					pos_k += 1
					if ir < 0 or ir >= nr or jc < 0 or jc >= nc:
						matches = False
						break
					if puzzle[ir][jc].lower() != wd[pos_k - 1]:
						matches = False
						break
					trail.append((ir, jc))
				if matches:
					return trail
	return None


def goFish(hand1, hand2, deck):
	first, pts1 = unpair(hand1)
	second, pts2 = unpair(hand2)
	draw_pile = list(deck)
	turn = 1
	# loop
	while len(first) > 0 and len(second) > 0:
		if turn == 1:
			my = first
			yours = second
		else:
			my = second
			yours = first
		request = my[0]
		if request in yours:
			my.pop(0)
			yours.remove(request)
			if turn == 1:
				pts1 = pts1 + 1
			else:
				pts2 = pts2 + 1
		else:
			drawn = draw_pile.pop(0)
			backup = drawn + 0
			my.append(drawn)
			moved = my.pop(0)
			my.append(moved)
			same = 0
			q = 0
			# loop
			while q < len(my):
				if my[q] == drawn:
					same = same + 1
				q = q + 1
			if same == 2:
				my.remove(drawn)
				my.remove(drawn)
				if turn == 1:
					pts1 = pts1 + 1
				else:
					pts2 = pts2 + 1
		if turn == 1:
			turn = 2
		else:
			turn = 1
	if pts1 > pts2:
		msg = "Player 1 won!"
	elif pts2 > pts1:
		msg = 'Player 2 won!'
	else:
		msg = "It's a tie!"
	return msg, [pts1, pts2]


def unpair(hand):
	kept = []
	n_pairs = 0
	pos_k = 0
	# loop
	while pos_k < len(hand):
		drawn = hand[pos_k]
		pos_k += 1
		matched = False
		# loop
		for jj in range(len(kept)):
			if kept[jj] == drawn:
				matched = True
				del kept[jj]
				break
		if matched:
			n_pairs = n_pairs + 1
		else:
			kept.append(drawn)
	return kept, n_pairs


def blackJack(hand, deck, opponent):
	acc_total = card_points(hand[0]) + card_points(hand[1])
	# loop
	for ii in range(len(deck)):
		if acc_total >= opponent:
			break
		acc_total = acc_total + card_points(deck[ii])
	if acc_total > 21:
		return False
	if acc_total >= opponent:
		return True
	return False


def card_points(x):
	if x == 65:
		return 11
	if x == ord('J') or x == ord('K') or x == ord('Q'):
		return 10
	return x


def war(hand1, hand2):
	first = []
	ii = 0
	# loop
	while ii < len(hand1):
		x = hand1[ii]
		first.append(x)
		ii = ii + 1
	second = []
	jj = 0
	# loop
	while jj < len(hand2):
		second.append(hand2[jj])
		jj += 1
	n_rounds = 1
	# loop
	while len(first) > 0 and len(second) > 0:
		top_a = first[0]
		top_b = second[0]
		first = first[1:]
		second = second[1:]
		n_rounds = n_rounds + 1
		if VERBOSE:
			print('round', n_rounds, top_a, top_b)
		if top_a == 2 and top_b == 13:
			first_wins = True
		elif top_a == 13 and top_b == 2:
			first_wins = False
		elif top_a > top_b:
			first_wins = True
		else:
			first_wins = False
		if first_wins:
			first.append(top_a)
			first.append(top_b)
		else:
			second.append(top_b)
			second.append(top_a)
	if len(first) > 0:
		answer = 'Player 1 defeated player 2 in ' + str(n_rounds - 1) + ' rounds.'
	else:
		answer = 'Player 2 defeated player 1 in ' + str(n_rounds - 1) + ' rounds.'
	return answer
	print('war over')


def scrabbleScore(mine, theirs):
	doubled = len(mine) * 2
	me_pts = 0
	ii = 0
	# loop
	while ii < len(mine):
		me_pts = me_pts + mine[ii]
		ii += 1
	you_pts = 0
	# loop
	for tv in theirs:
		you_pts = you_pts + tv
	if me_pts > you_pts:
		answer = "I am the Scrabble champion!"
	elif me_pts < you_pts:
		answer = "Beginner's luck..."
	else:
		answer = 'I challenge you to a rematch!'
	return answer


def mean_of(final_vals):
	num = 0
	acc = 0
	# loop
	for val_ in final_vals:
		acc = acc + val_
		num = num + 1
	return acc / num if num else 0
