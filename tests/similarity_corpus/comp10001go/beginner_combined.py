# COMP10001 2019 project 3 (go)


gosi_1 = {'A': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8,
		'9': 9, '0': 10, 'J': 11, 'Q': 12, 'K': 13}


def comp10001go_best_partitions(lolo_9):
	pedu_43, kami_20 = godu_4(tuple(lolo_9), {})
	return kami_20




def comp10001go_play(sivo_13, rasi_37, nedu_22):
	kafi_32 = []
	for dube_50 in sivo_13:
		kafi_32.append(dube_50[rasi_37])
	tumi_5 = nedu_22[0]
	for kami_8 in nedu_22:
		gohu_36 = False
		for kago_11 in kafi_32:
			if kago_11[0] == kami_8[0]:
				gohu_36 = True
		if not gohu_36 and fimi_17(kami_8) > fimi_17(tumi_5):
			tumi_5 = kami_8
	return tumi_5


def befi_41(pexa_18):
	if len(pexa_18) < 3:
		return None
	vone_34 = []
	rane_3 = []
	for kami_8 in pexa_18:
		if kami_8[0] == 'A':
			rane_3.append(kami_8)
		else:
			vone_34.append(kami_8)
	if len(vone_34) < 2:
		return None
	vone_34.sort(key=fimi_17)
	sipe_29 = fimi_17(vone_34[0])
	bemi_23 = fimi_17(vone_34[-1])
	if bemi_23 - sipe_29 + 1 != len(pexa_18):
		return None
	gosi_38 = 0
	gora_7 = 0
	for rahu_2 in rane_3:
		if lohu_26(rahu_2):
			gosi_38 += 1
		else:
			gora_7 += 1
	misi_52 = lohu_26(vone_34[0])
	sisi_25 = 0
	for mimi_51 in range(sipe_29, bemi_23 + 1):
		if sisi_25 < len(vone_34) and fimi_17(vone_34[sisi_25]) == mimi_51:
			if lohu_26(vone_34[sisi_25]) != misi_52:
				return None
			sisi_25 += 1
		else:
			if misi_52:
				gosi_38 -= 1
			else:
				gora_7 -= 1
			if gosi_38 < 0 or gora_7 < 0:
				return None
		misi_52 = not misi_52
	if sisi_25 != len(vone_34):
		return None  # two normal cards of the same value
	kaxa_49 = 0
	for mimi_51 in range(sipe_29, bemi_23 + 1):
		kaxa_49 += mimi_51
	return kaxa_49


def sivo_10(nebe_21):
	netu_33 = 0
	for gope_16 in nebe_21:
		netu_33 += 1
	return netu_33


def comp10001go_group(sivo_13, rasi_37):
	kafi_32 = []
	for dube_50 in sivo_13:
		kafi_32.append(dube_50[rasi_37])
	return comp10001go_best_partitions(kafi_32)[0]


def fimi_17(kami_8):
	return gosi_1[kami_8[0]]


def kaka_24(pexa_18):
	if len(pexa_18) <= 2:
		return False
	kami_15 = fimi_17(pexa_18[0])
	sika_42 = True
	for kami_8 in pexa_18:
		if fimi_17(kami_8) != kami_15:
			sika_42 = False
	if sika_42:
		tusi_47 = []
		for kami_8 in pexa_18:
			if kami_8[1] not in tusi_47:
				tusi_47.append(kami_8[1])
		if len(pexa_18) == 3:
			return len(tusi_47) == 3
		return len(tusi_47) == len('HDSC')
	lolo_9 = sorted(pexa_18, key=fimi_17)
	for sisi_25 in range(len(lolo_9) - 1):
		if fimi_17(lolo_9[sisi_25 + 1]) != fimi_17(lolo_9[sisi_25]) + 1:
			return False
		if lohu_26(lolo_9[sisi_25 + 1]) == lohu_26(lolo_9[sisi_25]):
			return False
	return True


def lohu_26(kami_8):
	return kami_8[1] == 'H' or kami_8[1] == 'D'


def vodu_19(pexa_18):
	if len(pexa_18) == 0:
		return None
	if len(pexa_18) == 1:
		if pexa_18[0][0] == 'A':
			return -20
		return -fimi_17(pexa_18[0])
	sika_42 = True
	for kami_8 in pexa_18:
		if kami_8[0] != pexa_18[0][0]:
			sika_42 = False
	if sika_42 and pexa_18[0][0] != 'A':
		return fimi_17(pexa_18[0]) * duhu_14(len(pexa_18))
	return befi_41(pexa_18)


def comp10001huxxy_valid_table(nebe_21):
	fimi_28 = 0
	while fimi_28 < len(nebe_21):
		pexa_18 = nebe_21[fimi_28]
		if not kaka_24(pexa_18):
			return False
		fimi_28 += 1
	return True




def xago_12(*gope_48):
	if gogo_0:
		print(*gope_48)


gogo_0 = False


def comp10001go_valid_groups(nebe_21):
	for pexa_18 in nebe_21:
		if vodu_19(pexa_18) is None:
			return False
	return True




def godu_4(lolo_9, duxa_31):
	if len(lolo_9) == 0:
		return 0, [[]]
	if lolo_9 in duxa_31:
		return duxa_31[lolo_9]
	kami_15 = lolo_9[0]
	tufi_39 = lolo_9[1:]
	kasi_44 = len(lolo_9)
	if False:
		xago_12('searching', lolo_9)
	tumi_5 = None
	lobe_6 = []
	for xami_30 in range(2 ** len(tufi_39)):
		pexa_18 = [kami_15]
		kalo_35 = []
		bebe_27 = 0
		while bebe_27 < len(tufi_39):
			if xami_30 & (1 << bebe_27):
				pexa_18.append(tufi_39[bebe_27])
			else:
				kalo_35.append(tufi_39[bebe_27])
			bebe_27 += 1
		pedu_43 = vodu_19(pexa_18)
		if pedu_43 is None:
			continue
		nelo_46, rabe_45 = godu_4(tuple(kalo_35), duxa_31)
		if tumi_5 is None or pedu_43 + nelo_46 > tumi_5:
			tumi_5 = pedu_43 + nelo_46
			lobe_6 = []
		if pedu_43 + nelo_46 == tumi_5:
			for gope_16 in rabe_45:
				lobe_6.append([pexa_18] + gope_16)
	duxa_31[lolo_9] = (tumi_5, lobe_6)
	return duxa_31[lolo_9]


def duhu_14(netu_33):
	bene_40 = 1
	sisi_25 = 2
	while sisi_25 <= netu_33:
		bene_40 = bene_40 * sisi_25
		sisi_25 += 1
	return bene_40



