function s = extractBetween(str, startPat, endPat)
% MATLAB's extractBetween (R2016b) for a char row: every piece between startPat and the next endPat (cellstr),
% or the text between two positions.
  if isnumeric(startPat)
    s = {str(startPat:endPat)};
    return;
  end
  s = {};
  k = 1;
  while true
    a = strfind(str(k:end), startPat);
    if isempty(a)
      break;
    end
    from = k + a(1) - 1 + numel(startPat);
    b = strfind(str(from:end), endPat);
    if isempty(b)
      break;
    end
    s{end + 1, 1} = str(from:from + b(1) - 2);
    k = from + b(1) - 1 + numel(endPat);
  end
end
